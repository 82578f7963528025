package telegram_test

import (
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTelegramAnotherPollerIsReported: when another program polls the same bot, Telegram
// answers mom 409; mom says why in its log and keeps trying, and answers once it is alone.
func TestTelegramAnotherPollerIsReported(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("still here"))
	w.run()
	stopRival := w.tg.StartRival()
	w.WaitLog("another program is reading this bot's updates (Telegram answered 409 Conflict)")
	stopRival()
	w.tg.Say(ada, ada, "are you there?")
	w.botSays(ada, 0, "still here")
	w.Stop()
	if w.tg.Conflicts() == 0 {
		t.Errorf("no 409 happened; the test proves nothing")
	}
}
