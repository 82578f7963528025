package slack_test

import (
	"fmt"
	"strings"
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

// TestSlackReplyInChannel: with "replyIn": "channel" a mention inside someone's thread is
// answered at the top level of the channel, with the details under the answer, and the
// thread stays as people left it.
func TestSlackReplyInChannel(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, `"replyIn": "channel"`)
	sw.run()
	root := sw.slack.Say(general, beaID, "the build is red")
	sw.LLM.Enqueue(fakellm.Text("Looking at it from the top."))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> can you check?", fakeslack.InThread(root))
	answer := sw.botSays(general, "", "Looking at it from the top.")
	sw.botSays(general, answer.TS, " in, ") // the usage summary, under the answer
	if got := sw.botReplies(general, root); len(got) != 0 {
		t.Errorf("the bot wrote in the thread it was asked in: %q", got)
	}
	sw.Stop()
}

// TestSlackDMThreadIsAnsweredAtTopLevel: in a DM the answer to a message written in a thread
// goes to the top level of the conversation whatever replyIn says, as it does for every DM.
func TestSlackDMThreadIsAnsweredAtTopLevel(t *testing.T) {
	t.Parallel()
	for _, replyIn := range []string{"thread", "channel"} {
		t.Run(replyIn, func(t *testing.T) {
			t.Parallel()
			sw := newSlackWorld(t, fmt.Sprintf(`"replyIn": %q`, replyIn))
			root := sw.slack.Say(adaDM, adaID, "a note to self", fakeslack.Silently())
			sw.run()
			sw.LLM.Enqueue(fakellm.Text("Noted at the top."))
			sw.slack.Say(adaDM, adaID, "what about this one?", fakeslack.InThread(root))
			sw.botSays(adaDM, "", "Noted at the top.")
			if got := sw.botReplies(adaDM, root); len(got) != 0 {
				t.Errorf("the bot answered inside the DM thread: %q", got)
			}
			sw.Stop()
			if got := sw.WaitRequests(1)[0].LastUserText(); !strings.Contains(got, "what about this one?") {
				t.Errorf("the model saw %q", got)
			}
		})
	}
}
