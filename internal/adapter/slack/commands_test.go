package slack_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/slack"
	"github.com/mom-agent/mom/internal/apptest"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// TestSlackSlashCommand: the app's slash command (the manifest's "/mom") carries a chat
// command as its text; mom acknowledges it and answers in the conversation exactly as it
// answers the typed "@mom /help", passes what follows on (/mom model nope), answers in a DM
// too, and logs the command as the person's message to mom. Text that names no command, and a
// conversation mom is not in, are answered to the person alone in the acknowledgement.
func TestSlackSlashCommand(t *testing.T) {
	t.Parallel()
	command := slack.CommandFor("mom")
	sw := newSlackWorld(t, `"busy": "queue"`, fakeslack.WithSlashCommands(command))
	const random = "C0RANDOM" // a channel without the bot
	sw.slack.AddChannel(fakeslack.Channel{ID: random, Name: "random", Members: []string{adaID}})
	sw.run()

	slash := func(user, channel, text string) {
		t.Helper()
		if _, err := sw.slack.SlashCommand(user, channel, command, text); err != nil {
			t.Fatal(err)
		}
	}
	slash(adaID, general, "help")
	native := sw.botSays(general, "", "/compact [focus]")
	sw.slack.Say(general, adaID, "<@"+slackBot+"> /help")
	sw.slack.WaitFor(t, "the typed /help to get the same answer", func() bool {
		n := 0
		for _, m := range sw.slack.Messages(general) {
			if m.User == slackBot && m.Text == native.Text {
				n++
			}
		}
		return n == 2
	})
	slash(adaID, general, "model nope")
	sw.botSays(general, "", `There is no model called "nope"`)
	slash(adaID, adaDM, "status")
	sw.botSays(adaDM, "", "no run here since mom started")
	slash(adaID, general, "what is up")
	slash(adaID, random, "cost")
	sw.slack.WaitFor(t, "the two refusals", func() bool { return len(sw.slack.CommandResponses()) == 2 })
	sw.Stop()

	r := sw.slack.CommandResponses()
	if r[0].ResponseType != "ephemeral" || !strings.Contains(r[0].Text, "no command “what”") || !strings.Contains(r[0].Text, command+" help") {
		t.Errorf("the answer to an unknown command = %+v", r[0])
	}
	if r[1].ResponseType != "ephemeral" || r[1].Channel != random || !strings.Contains(r[1].Text, "/invite @mom") {
		t.Errorf("the answer in a channel without mom = %+v", r[1])
	}
	for _, m := range sw.slack.Messages(random) {
		t.Errorf("mom wrote in a channel it is not in: %+v", m)
	}
	for _, d := range sw.slack.Deliveries() {
		if !d.Acked {
			t.Errorf("envelope %s (%s) was never acknowledged", d.EnvelopeID, d.EventType)
		}
	}
	logged := false
	for _, l := range apptest.JSONLines(t, filepath.Join(sw.ChannelDir("acme", general), "log.jsonl")) {
		sender, _ := l["sender"].(map[string]any)
		logged = logged || l["text"] == "/model nope" && sender["id"] == adaID && sender["username"] == "ada" && l["isMention"] == true
	}
	if !logged {
		t.Error("the slash command is not in log.jsonl as ada's message to mom")
	}
	if n := len(sw.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests; commands are mom's to answer", n)
	}
}
