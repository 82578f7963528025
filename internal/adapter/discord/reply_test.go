package discord_test

import (
	"strings"
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// Where mom's answer, its tool details and its usage line go: a thread made from the answer
// where Discord allows one, replies below the answer where it does not (a DM, or a channel
// that denies mom Create Public Threads).

func TestDiscordMentionGetsReplyWithDetailsInThread(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	dw.LLM.Enqueue(fakellm.Text("Done: **hi** to @bea"))
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> please greet <@"+beaID+">")

	answer := dw.botSays(general, "Done: **hi** to <@"+beaID+">")
	if answer.Thread == "" {
		t.Fatalf("no thread was created from the answer")
	}
	if th, _ := dw.d.Channel(answer.Thread); th.Name != "please greet @bea" {
		t.Errorf("thread named %q; want it named after the request", th.Name)
	}
	details := dw.botSays(answer.Thread, "✓ bash")
	for _, want := range []string{"Say hi", "echo hi-from-bash", "hi-from-bash"} {
		if !strings.Contains(details.Content, want) {
			t.Errorf("tool detail lacks %q:\n%s", want, details.Content)
		}
	}
	dw.botSays(answer.Thread, " in, ") // the usage summary
	if answer.Edits == 0 {
		t.Errorf("the status message was never edited into the answer")
	}
	if dw.d.Typing(general) == 0 {
		t.Errorf("mom never showed the typing indicator while working")
	}
	prompt := dw.WaitRequests(2)[0].LastUserText()
	if !strings.Contains(prompt, "please greet @bea") || strings.Contains(prompt, bot) {
		t.Errorf("the model saw %q; want the bot's mention removed and bea's as @bea", prompt)
	}
	dw.Stop()
	lines := dw.logLines(general)
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[1]["sender"].(map[string]any)["isBot"] != true {
		t.Errorf("log.jsonl = %v; want the mention and mom's answer", lines)
	}
}

// TestDiscordThreadRefusedDetailsFollowTheAnswer: where mom may not create threads (an admin
// denied it Create Public Threads in the channel, and Discord answers 403 Missing
// Permissions), the details and the usage line come as replies below the answer, as in DMs.
func TestDiscordThreadRefusedDetailsFollowTheAnswer(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.d.SetOwner(adaID)
	dw.d.SetOverwrites(general, fakediscord.Overwrite{ID: dw.d.BotRoleID(), Type: fakediscord.OverwriteRole,
		Deny: fakediscord.PermCreatePublicThreads})
	dw.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})))
	dw.LLM.Enqueue(fakellm.Text("All done."))
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> look around")
	answer := dw.botSays(general, "All done.")
	dw.botSays(general, " in, ") // the usage line comes last
	dw.Stop()
	var shown []fakediscord.Message
	for _, m := range dw.d.Messages(general) {
		if m.Author == bot {
			shown = append(shown, m)
		}
	}
	if len(shown) != 3 || shown[0].ID != answer.ID || answer.Thread != "" {
		t.Fatalf("the bot's messages in #general = %+v; want the answer, its detail and the usage line", shown)
	}
	for _, m := range shown[1:] {
		if m.Reference != answer.ID {
			t.Errorf("%q replies to %q; want the answer %s", m.Content, m.Reference, answer.ID)
		}
	}
	if !strings.Contains(shown[1].Content, "✓ bash") || !strings.Contains(shown[1].Content, "looked") {
		t.Errorf("the detail reads %q", shown[1].Content)
	}
	refused := 0
	for _, c := range dw.d.Calls("POST /channels/{id}/messages/{id}/threads") {
		if c.Status == 403 {
			refused++
		}
	}
	if refused == 0 {
		t.Errorf("Discord never refused a thread; the test did not test the fallback")
	}
}

// TestDiscordDMDetailsFollowTheAnswer: DMs have no threads, so details come as replies below
// the answer.
func TestDiscordDMDetailsFollowTheAnswer(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})))
	dw.LLM.Enqueue(fakellm.Text("All done."))
	dw.run()
	dw.d.Say(adaDM, adaID, "look around")
	answer := dw.botSays(adaDM, "All done.")
	detail := dw.botSays(adaDM, "✓ bash")
	if detail.Reference != answer.ID {
		t.Errorf("the detail replies to %q; want the answer %s", detail.Reference, answer.ID)
	}
	dw.Stop()
}
