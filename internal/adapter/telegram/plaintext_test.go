package telegram_test

import (
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTelegramRefusedMarkupFallsBackToPlainText: when Telegram cannot parse the HTML mom sends
// ("can't parse entities"), the words still arrive, as plain text.
func TestTelegramRefusedMarkupFallsBackToPlainText(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("**Plain** words still arrive"))
	w.run()
	w.tg.RejectMarkup(100)
	w.tg.Say(ada, ada, "hi")
	m := w.botSays(ada, 0, "Plain words still arrive")
	w.Stop()
	if m.HTML != "" || len(m.Entities) != 0 {
		t.Errorf("the fallback should be plain text, got %q %+v", m.HTML, m.Entities)
	}
	refused := 0
	for _, c := range append(w.tg.Calls("sendMessage"), w.tg.Calls("editMessageText")...) {
		if strings.Contains(c.Error, "can't parse entities") {
			refused++
			if c.Params["parse_mode"] != "HTML" {
				t.Errorf("a refused call had parse_mode %q", c.Params["parse_mode"])
			}
		}
	}
	if refused == 0 {
		t.Errorf("no call was refused; the test proves nothing")
	}
}
