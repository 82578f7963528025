package slack_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestSlackApprovalButtons: a command that needs a yes is asked about in the channel with
// Block Kit buttons; a tap by someone who may not decide is refused in a message only they
// see and changes nothing; the admin's Allow runs it and the question then says who allowed
// it, without buttons; Deny keeps the next command from running and tells the model. Every
// interaction envelope is acknowledged (the bot's own messages' echoes may still be in
// flight when mom stops).
func TestSlackApprovalButtons(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, `"approvals": {"mode": "ask"}`)
	sw.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch slack-allowed.txt"})),
		fakellm.Text("made it"),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Clean up", "command": "touch slack-denied.txt"})),
		fakellm.Text("left it"),
	)
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> make a file")

	q := sw.botSays(general, "", "Approval needed")
	if !strings.Contains(q.Text, "touch slack-allowed.txt") || !strings.Contains(q.Text, "Make a file") {
		t.Errorf("the question does not say what will run:\n%s", q.Text)
	}
	if bs := sw.slack.Buttons(general, q.TS); len(bs) != 3 || bs[0].Text != "Allow" || bs[2].Style != "danger" {
		t.Fatalf("buttons = %+v; want Allow, Allow always, Deny", bs)
	}
	if _, err := sw.slack.Click(beaID, general, q.TS, "allow"); err != nil {
		t.Fatal(err)
	}
	sw.slack.WaitFor(t, "bea to be told she may not decide", func() bool {
		e := sw.slack.Ephemerals()
		return len(e) == 1 && e[0].User == beaID && strings.Contains(e[0].Text, "Only an admin")
	})
	scratch := filepath.Join(sw.ChannelDir("acme", general), "scratch")
	if _, err := os.Stat(filepath.Join(scratch, "slack-allowed.txt")); err == nil {
		t.Fatal("bea's tap ran the command")
	}
	if _, err := sw.slack.Click(adaID, general, q.TS, "allow"); err != nil {
		t.Fatal(err)
	}
	sw.botShows(general, "made it")
	if _, err := os.Stat(filepath.Join(scratch, "slack-allowed.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	settled := sw.botSays(general, "", "Allowed by ada")
	if settled.TS != q.TS || len(sw.slack.Buttons(general, q.TS)) != 0 {
		t.Errorf("the question was not settled in place without buttons: %+v", settled)
	}

	sw.slack.Say(general, adaID, "<@"+slackBot+"> clean up")
	sw.slack.WaitFor(t, "a second question", func() bool { return len(questions(sw)) == 2 })
	if _, err := sw.slack.Click(adaID, general, questions(sw)[1], "deny"); err != nil {
		t.Fatal(err)
	}
	sw.botShows(general, "left it")
	reqs := sw.WaitRequests(4)
	res := reqs[3].ToolResults()
	if len(res) == 0 || !strings.Contains(res[len(res)-1].Text, "denied it") {
		t.Errorf("the model was not told of the denial: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(scratch, "slack-denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	sw.Stop()
	for _, d := range sw.slack.Deliveries() {
		if d.EventType == "block_actions" && !d.Acked {
			t.Errorf("envelope %s (%s) was not acknowledged", d.EnvelopeID, d.EventType)
		}
	}
}

// questions returns the ts of the bot's questions in general, oldest first.
func questions(sw *slackWorld) []string {
	var ts []string
	for _, m := range sw.slack.Messages(general) {
		if m.User == slackBot && strings.Contains(m.Text, "Approval needed") {
			ts = append(ts, m.TS)
		}
	}
	return ts
}
