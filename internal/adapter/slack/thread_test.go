package slack_test

import (
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

func TestSlackThreadMentionIsAnsweredInTheThread(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.run()
	root := sw.slack.Say(general, beaID, "the build is red")
	sw.LLM.Enqueue(fakellm.Text("Looking at it."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> can you check?", fakeslack.InThread(root))
	sw.botSays(general, root, "Looking at it.")
	for _, m := range sw.slack.Messages(general) {
		if m.User == slackBot {
			t.Errorf("the answer leaked to the top level: %q", m.Text)
		}
	}
	sw.Stop()
}
