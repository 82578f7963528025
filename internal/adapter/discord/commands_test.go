package discord_test

import (
	"slices"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// TestDiscordSlashCommands: at start mom registers one slash command per chat command, as
// Discord takes them (an optional text option where the command takes something), for servers
// and DMs; using one is responded to at once through the interaction's callback with the
// command, and answered by mom in the channel exactly as the typed "@mom /help" is, with its
// option passed on (/model name: nope); in a DM too. The command is logged as ada's message.
func TestDiscordSlashCommands(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.run()
	dw.d.WaitFor(t, "mom to register its slash commands", func() bool { return len(dw.d.GlobalCommands()) > 0 })
	cmds := dw.d.GlobalCommands()
	if len(cmds) != len(chat.Commands()) {
		t.Fatalf("registered %+v; want one per chat command", cmds)
	}
	for i, c := range chat.Commands() {
		got := cmds[i]
		if got.Name != c.Name || got.Type != fakediscord.CommandChatInput || got.Description != c.Summary ||
			!slices.Equal(got.Contexts, []int{fakediscord.ContextGuild, fakediscord.ContextBotDM}) {
			t.Errorf("command %d = %+v; want /%s for servers and DMs", i, got, c.Name)
		}
		if (c.Args != "") != (len(got.Options) == 1) {
			t.Errorf("/%s has options %+v; want one for %q", c.Name, got.Options, c.Args)
		}
	}
	if o := cmds[slices.IndexFunc(cmds, func(c fakediscord.ApplicationCommand) bool { return c.Name == "compact" })].Options; o[0].Name != "focus" || o[0].Required {
		t.Errorf("/compact's option = %+v; want an optional focus", o)
	}

	if _, err := dw.d.Invoke(adaID, general, "help", nil); err != nil {
		t.Fatal(err)
	}
	native := dw.botSays(general, "/compact [focus]")
	dw.d.Say(general, adaID, "<@"+bot+"> /help")
	dw.d.WaitFor(t, "the typed /help to get the same answer", func() bool {
		n := 0
		for _, m := range dw.d.Messages(general) {
			if m.Author == bot && m.Content == native.Content {
				n++
			}
		}
		return n == 2
	})
	if _, err := dw.d.Invoke(adaID, general, "model", map[string]string{"name": "nope"}); err != nil {
		t.Fatal(err)
	}
	dw.botSays(general, `There is no model called "nope"`)
	if _, err := dw.d.Invoke(adaID, adaDM, "status", nil); err != nil {
		t.Fatal(err)
	}
	dw.botSays(adaDM, "no run here since mom started")
	dw.Stop()

	var responses []string
	for _, in := range dw.d.Interactions() {
		if len(in.Responses) != 1 || in.Responses[0].Type != fakediscord.CallbackChannelMessage {
			t.Errorf("interaction %+v; want one message response", in)
			continue
		}
		responses = append(responses, in.Responses[0].Content)
	}
	if want := []string{"/help", "/model nope", "/status"}; !slices.Equal(responses, want) {
		t.Errorf("responses = %q; want %q", responses, want)
	}
	logged := false
	for _, l := range dw.logLines(general) {
		sender, _ := l["sender"].(map[string]any)
		logged = logged || l["text"] == "/model nope" && sender["id"] == adaID && l["isMention"] == true
	}
	if !logged {
		t.Errorf("the slash command is not in log.jsonl as ada's message to mom:\n%v", dw.logLines(general))
	}
	if n := len(dw.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests; commands are mom's to answer", n)
	}
}
