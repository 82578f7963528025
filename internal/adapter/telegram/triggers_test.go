package telegram_test

import (
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// TestTelegramGroupTriggers: in a group, a mention, a reply to the bot and a /command start a
// run; a message of another bot does not, though it reaches the model as context.
func TestTelegramGroupTriggers(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, `"busy": "queue"`) // each trigger runs, even one that comes while the last finishes
	w.run()
	w.tg.Say(group, bea, "lunch at noon?")
	w.tg.Say(group, ciBot, "@mom_bot deploy finished") // another bot never triggers
	w.LLM.Enqueue(fakellm.Text("Noted, first."))
	asked := w.tg.Say(group, ada, "hey @mom_bot what did bea say?")
	first := w.botSays(group, 0, "Noted, first.")
	if first.ReplyTo != asked {
		t.Errorf("the answer should reply to the message that asked (%d), replies to %d", asked, first.ReplyTo)
	}
	prompt := w.WaitRequests(1)[0].LastUserText()
	for _, want := range []string{"lunch at noon?", "deploy finished", "hey what did bea say?"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model's prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "@mom_bot what") {
		t.Errorf("the bot's mention was not removed:\n%s", prompt)
	}
	w.LLM.Enqueue(fakellm.Text("Noted, second."))
	w.tg.Say(group, bea, "and what about tomorrow?", faketg.ReplyTo(first.ID))
	w.botSays(group, 0, "Noted, second.")
	w.LLM.Enqueue(fakellm.Text("Noted, third."))
	w.tg.Say(group, ada, "/summary@mom_bot today")
	w.botSays(group, 0, "Noted, third.")
	w.Stop()
	reqs := w.LLM.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests; want the mention, the reply and the command to run, nothing else", len(reqs))
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "/summary today") {
		t.Errorf("the command reached the model as %q", got)
	}
}
