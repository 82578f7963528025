package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordUserIsolation: under user isolation, a command run for a person in a Discord
// channel reads the log of another channel they may view, and not the log of a private
// channel (@everyone denied View Channel, one other member allowed) that they may not.
func TestDiscordUserIsolation(t *testing.T) {
	needBwrap(t)
	const ops, secret = "1300000000000000002", "1300000000000000003"
	dw := newDiscordWorld(t, "")
	dw.d.AddChannel(fakediscord.Channel{ID: ops, Name: "ops"})
	dw.d.AddChannel(fakediscord.Channel{ID: secret, Name: "secret", Overwrites: []fakediscord.Overwrite{
		{ID: dw.d.GuildID(), Type: fakediscord.OverwriteRole, Deny: fakediscord.PermViewChannel},
		{ID: dBea, Type: fakediscord.OverwriteMember, Allow: fakediscord.PermViewChannel},
	}})
	cfg, err := os.ReadFile(filepath.Join(dw.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	dw.writeConfig(strings.Replace(string(cfg), "{", `{"sandbox": {"type": "bwrap", "isolation": "user"},`, 1))
	read := func(ch string) string { return "cat /workspace/channels/guild/" + ch + "/log.jsonl" }
	dw.llm.Enqueue(bash(map[string]string{"ops": read(ops), "secret": read(secret)}), fakellm.Text("ada's done"))
	dw.run()

	// Bea talks in both channels; mom logs what it hears.
	for ch, text := range map[string]string{ops: "ops-history", secret: "secret-history"} {
		dw.d.Say(ch, dBea, text)
		log := filepath.Join(dw.channelDir("guild", ch), "log.jsonl")
		waitForFile(t, log)
		eventually(t, text+" in the log", func() bool {
			data, _ := os.ReadFile(log)
			return strings.Contains(string(data), text)
		})
	}
	dw.d.Say(dGeneral, dAda, "<@"+dBot+"> what was said elsewhere?")
	dw.botSays(dGeneral, "ada's done")
	reqs := dw.waitRequests(2)
	if r, _ := reqs[1].ToolResult("ops"); !strings.Contains(r.Text, "ops-history") {
		t.Errorf("ada's command could not read #ops, which she may view: %q", r.Text)
	}
	if r, _ := reqs[1].ToolResult("secret"); strings.Contains(r.Text, "secret-history") || !strings.Contains(r.Text, "No such file") {
		t.Errorf("ada's command read #secret, which she may not view: %q", r.Text)
	}
	dw.stop()
	var asked bool
	for _, c := range dw.d.Calls("GET /guilds/{id}/members/{id}") {
		asked = asked || strings.HasSuffix(c.Path, "/"+dAda)
	}
	if !asked {
		t.Error("mom never asked Discord about ada's membership")
	}
	if v := dw.d.Violations(); len(v) > 0 {
		t.Errorf("violations: %q", v)
	}
}
