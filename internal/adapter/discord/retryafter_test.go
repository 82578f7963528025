package discord_test

import (
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordRateLimitIsHonoured: answers that Discord turns away with 429 are sent again
// after its Retry-After, and the fake records no request that ignored it.
func TestDiscordRateLimitIsHonoured(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.LLM.Enqueue(fakellm.Text("slow and steady"))
	dw.run()
	dw.d.RateLimit("POST /channels/{id}/messages", 2, time.Second)
	dw.d.Say(general, adaID, "<@"+bot+"> hi")
	dw.botSays(general, "slow and steady")
	dw.Stop()
	limited := 0
	for _, c := range dw.d.Calls("POST /channels/{id}/messages") {
		if c.Status == 429 {
			limited++
		}
	}
	if limited != 2 {
		t.Errorf("%d answers were 429; the test meant two", limited)
	}
}
