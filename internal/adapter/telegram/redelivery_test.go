package telegram_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTelegramUpdatesSentAgainAfterACrashAreNotLoggedTwice: mom confirms a batch of
// updates only with its next getUpdates call, so when it dies before that call gets through,
// Telegram sends the batch again to the next mom, which must know it from the log. Stopping
// mom while it waits out the refused call leaves the batch as unconfirmed as a crash would,
// and the next mom starts afresh from the data directory all the same.
func TestTelegramUpdatesSentAgainAfterACrashAreNotLoggedTwice(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("hello to you"))
	w.run()
	w.tg.RateLimit("getUpdates", 1, 1) // the call that would confirm the message is refused
	w.tg.Say(ada, ada, "hello once")
	w.botSays(ada, 0, "hello to you")
	var refused time.Time
	apptest.Eventually(t, "the confirming getUpdates to be refused", func() bool {
		for _, c := range w.tg.Calls("getUpdates") {
			if strings.HasPrefix(c.Error, "Too Many Requests") {
				refused = c.At
				return true
			}
		}
		return false
	})
	w.WaitIdle()
	w.Stop()
	if w.tg.Pending() == 0 {
		t.Fatal("the message was confirmed before mom went away; the test proves nothing")
	}
	// The next mom may poll only after retry_after, or the fake counts a violation.
	apptest.Eventually(t, "retry_after to pass", func() bool { return time.Since(refused) > 1100*time.Millisecond })
	w.run()
	apptest.Eventually(t, "the message to be sent again and confirmed", func() bool {
		again := false
		for _, n := range w.tg.Deliveries() {
			again = again || n >= 2
		}
		return again && w.tg.Pending() == 0
	})
	w.Stop()
	var said []string
	for _, l := range apptest.JSONLines(t, filepath.Join(w.chatDir(ada, 0), "log.jsonl")) {
		said = append(said, l["text"].(string))
	}
	if strings.Count(strings.Join(said, "\n"), "hello once") != 1 {
		t.Errorf("log.jsonl holds %q; want the message once", said)
	}
}
