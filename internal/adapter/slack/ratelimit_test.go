package slack_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// Posts and edits within Slack's rate limits. The fake records a client that retries before a
// 429's Retry-After, or edits one message faster than Slack allows, as a violation, which
// fails the test (newSlackWorld).

// TestSlackRateLimitIsHonoured: when Slack refuses chat.postMessage with 429, mom waits as
// told and the answer still arrives.
func TestSlackRateLimitIsHonoured(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.LLM.Enqueue(fakellm.Text("slow and steady"))
	sw.run()
	sw.slack.RateLimit("chat.postMessage", 2, time.Second)
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hi")
	sw.botSays(general, "", "slow and steady")
	sw.Stop()
}

// TestSlackStreamedAnswerEditsWithinRateLimits: a long answer streamed in small pieces is
// shown as it grows without editing the message faster than Slack allows, and the final
// edit, which may come right after a throttled one, always writes the whole answer.
func TestSlackStreamedAnswerEditsWithinRateLimits(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	var words []string
	for i := range 120 {
		words = append(words, fmt.Sprintf("word%03d", i))
	}
	answer := strings.Join(words, " ")
	sw.LLM.Enqueue(fakellm.Reply{Text: answer, ChunkSize: 6, EventDelay: 15 * time.Millisecond})
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> count for me")
	m := sw.botShows(general, answer)
	if m.Edits < 2 {
		t.Errorf("the status message was edited %d times; want it to grow while the answer streamed", m.Edits)
	}
	sw.Stop()
}

// TestSlackRateLimitedFinalEditIsWritten: when Slack refuses the edit that carries the answer,
// mom waits as told and writes it.
func TestSlackRateLimitedFinalEditIsWritten(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	sw.LLM.Enqueue(fakellm.Text("worth the wait"))
	sw.run()
	sw.slack.RateLimit("chat.update", 1, time.Second)
	sw.slack.Say(general, adaID, "<@"+slackBot+"> hi")
	sw.botShows(general, "worth the wait")
	calls := sw.slack.Calls("chat.update")
	if len(calls) < 2 || calls[0].Error != "ratelimited" {
		t.Errorf("chat.update calls %+v; want the first refused and retried", calls)
	}
	sw.Stop()
}
