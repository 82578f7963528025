package discord_test

import (
	"strings"
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// What addresses mom on Discord, and so starts a run: a mention of mom or of its bot role, a
// reply to one of its messages (pinged or not); and what does not: other bots, other roles,
// replies to other people.

// TestDiscordBotsAndRepliesToMom: other bots are logged but never start a run, even when they
// mention mom; a Discord reply to one of mom's messages addresses mom.
func TestDiscordBotsAndRepliesToMom(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("first answer"))
	dw.LLM.Enqueue(fakellm.Text("answer to the reply"))
	dw.run()
	dw.d.Say(general, ciID, "<@"+bot+"> deploy done")
	dw.d.Say(general, adaID, "<@"+bot+"> what did ci say?")
	answer := dw.botSays(general, "first answer")
	if prompt := dw.WaitRequests(1)[0].LastUserText(); !strings.Contains(prompt, "deploy done") {
		t.Errorf("the bot's message did not reach the context:\n%s", prompt)
	}
	dw.WaitLog("run finished") // a message while mom is busy would be turned away
	dw.d.Say(general, beaID, "and then?", fakediscord.InReplyTo(answer.ID))
	dw.botSays(general, "answer to the reply")
	dw.Stop()
	if n := len(dw.LLM.Requests()); n != 2 {
		t.Errorf("%d model requests; the CI bot must not start a run", n)
	}
}

// TestDiscordReplyWithoutPingStartsARun: a person may switch a reply's ping off, and Discord
// then leaves mom out of the message's mentions; a reply to mom still addresses mom, a reply
// to someone else does not.
func TestDiscordReplyWithoutPingStartsARun(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("first answer"))
	dw.LLM.Enqueue(fakellm.Text("answer to the quiet reply"))
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> what's the plan?")
	answer := dw.botSays(general, "first answer")
	dw.WaitLog("run finished")
	plan := dw.d.Say(general, beaID, "we ship on friday")
	dw.d.Say(general, adaID, "agreed", fakediscord.InReplyTo(plan), fakediscord.NoPing())
	dw.d.Say(general, beaID, "and the tests?", fakediscord.InReplyTo(answer.ID), fakediscord.NoPing())
	reply := dw.botSays(general, "answer to the quiet reply")
	if prompt := dw.WaitRequests(2)[1].LastUserText(); !strings.Contains(prompt, "and the tests?") {
		t.Errorf("the model saw %q; want the reply", prompt)
	}
	dw.Stop()
	if n := len(dw.LLM.Requests()); n != 2 {
		t.Errorf("%d model requests; want the mention and the reply to mom", n)
	}
	mention := map[string]any{}
	for _, l := range dw.logLines(general) {
		mention[l["text"].(string)] = l["isMention"]
	}
	if mention["agreed"] == true || mention["and the tests?"] != true {
		t.Errorf("isMention in log.jsonl = %v; want the reply to mom alone to address it", mention)
	}
	if reply.ID == answer.ID {
		t.Errorf("the reply was answered by editing the first answer")
	}
}

// TestDiscordBotRoleMentionStartsARun: Discord gives an invited bot a managed role named like
// it, which sits next to the bot in the @ list; mentioning it means mom, and its markup is
// removed like mom's own mention.
func TestDiscordBotRoleMentionStartsARun(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("right here"))
	dw.run()
	dw.d.Say(general, adaID, "<@&"+dw.d.BotRoleID()+"> where are you?")
	dw.botSays(general, "right here")
	prompt := dw.WaitRequests(1)[0].LastUserText()
	if !strings.Contains(prompt, "where are you?") || strings.Contains(prompt, dw.d.BotRoleID()) || strings.Contains(prompt, "@role") {
		t.Errorf("the model saw %q; want the text without the role's mention", prompt)
	}
	dw.Stop()
	lines := dw.logLines(general)
	if len(lines) != 2 || lines[0]["isMention"] != true || lines[0]["text"] != "where are you?" {
		t.Errorf("log.jsonl = %v; want the mention of mom's role as a mention", lines)
	}
}

// TestDiscordRoleMentionReadsAsItsName: other roles reach the model as @name, and mentioning
// one does not start a run.
func TestDiscordRoleMentionReadsAsItsName(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	oncall := dw.d.AddRole(fakediscord.Role{Name: "oncall"})
	dw.LLM.Enqueue(fakellm.Text("paging them"))
	dw.run()
	dw.d.Say(general, beaID, "<@&"+oncall+"> the db is down")
	dw.d.Say(general, adaID, "<@"+bot+"> tell <@&"+oncall+"> what you see")
	dw.botSays(general, "paging them")
	prompt := dw.WaitRequests(1)[0].LastUserText()
	for _, want := range []string{"@oncall the db is down", "tell @oncall what you see"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model saw %q; want %q in it", prompt, want)
		}
	}
	dw.Stop()
	if n := len(dw.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; a role's mention must not start a run", n)
	}
}
