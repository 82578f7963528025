package discord_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordUserIsolation: under user isolation, a command run for a person in a Discord
// channel reads the log of another channel they may view, and not the log of a private
// channel (@everyone denied View Channel, one other member allowed) that they may not.
func TestDiscordUserIsolation(t *testing.T) {
	t.Parallel()
	if err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		t.Skipf("bubblewrap cannot make namespaces here (scripts/test installs it): %v", err)
	}
	const ops, secret = "1300000000000000002", "1300000000000000003"
	dw := newDiscordWorld(t)
	dw.d.AddChannel(fakediscord.Channel{ID: ops, Name: "ops"})
	dw.d.AddChannel(fakediscord.Channel{ID: secret, Name: "secret", Overwrites: []fakediscord.Overwrite{
		{ID: dw.d.GuildID(), Type: fakediscord.OverwriteRole, Deny: fakediscord.PermViewChannel},
		{ID: beaID, Type: fakediscord.OverwriteMember, Allow: fakediscord.PermViewChannel},
	}})
	cfg, err := os.ReadFile(filepath.Join(dw.Dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	dw.WriteConfig(strings.Replace(string(cfg), "{", `{"sandbox": {"type": "bwrap", "isolation": "user"},`, 1))
	// One model turn reads both logs at once, each call named for its channel.
	read := func(id, ch string) fakellm.ToolCall {
		return fakellm.ToolCall{ID: id, Name: "bash", Args: map[string]any{
			"label": id, "command": "cat /workspace/channels/guild/" + ch + "/log.jsonl"}}
	}
	dw.LLM.Enqueue(fakellm.Calls(read("ops", ops), read("secret", secret)), fakellm.Text("ada's done"))
	dw.run()

	// Bea talks in both channels; mom logs what it hears.
	for ch, text := range map[string]string{ops: "ops-history", secret: "secret-history"} {
		dw.d.Say(ch, beaID, text)
		log := dw.logPath(ch)
		apptest.WaitForFile(t, log)
		apptest.Eventually(t, text+" in the log", func() bool {
			data, _ := os.ReadFile(log)
			return strings.Contains(string(data), text)
		})
	}
	dw.d.Say(general, adaID, "<@"+bot+"> what was said elsewhere?")
	dw.botSays(general, "ada's done")
	reqs := dw.WaitRequests(2)
	if r, _ := reqs[1].ToolResult("ops"); !strings.Contains(r.Text, "ops-history") {
		t.Errorf("ada's command could not read #ops, which she may view: %q", r.Text)
	}
	if r, _ := reqs[1].ToolResult("secret"); strings.Contains(r.Text, "secret-history") || !strings.Contains(r.Text, "No such file") {
		t.Errorf("ada's command read #secret, which she may not view: %q", r.Text)
	}
	dw.Stop()
	var asked bool
	for _, c := range dw.d.Calls("GET /guilds/{id}/members/{id}") {
		asked = asked || strings.HasSuffix(c.Path, "/"+adaID)
	}
	if !asked {
		t.Error("mom never asked Discord about ada's membership")
	}
}
