package telegram_test

import (
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

func TestTelegramRateLimitIsHonoured(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("slow and steady"))
	w.run()
	w.tg.RateLimit("sendMessage", 2, 1)
	w.tg.Say(ada, ada, "hi")
	w.botSays(ada, 0, "slow and steady")
	w.Stop()
	// The fake records a call that comes before retry_after has passed as a violation, which
	// the world checks at the test's end.
	calls := w.tg.Calls("sendMessage")
	if len(calls) < 3 || !strings.HasPrefix(calls[0].Error, "Too Many Requests") || calls[2].Error != "" {
		t.Fatalf("sendMessage calls = %+v; want two refused and then one sent", calls)
	}
}
