package slack_test

import (
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestSlackRefreshRequestReconnects: Slack asks clients to reconnect every few hours; mom opens
// a new connection and goes on answering, without running anything twice.
func TestSlackRefreshRequestReconnects(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.run()
	sw.slack.Refresh()
	sw.slack.WaitFor(t, "a second connection", func() bool { return sw.slack.Connections() >= 2 && sw.slack.Connected() })
	sw.LLM.Enqueue(fakellm.Text("still here"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> are you there?")
	sw.botSays(general, "", "still here")
	sw.slack.WaitFor(t, "every event acknowledged", func() bool { return len(sw.slack.Unacked()) == 0 })
	sw.Stop()
	if n := len(sw.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; want 1", n)
	}
}
