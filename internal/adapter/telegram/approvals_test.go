package telegram_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTelegramApprovalKeyboard: a command that needs a yes is asked about with an inline
// keyboard; a press by someone who may not decide is answered with why and changes nothing;
// the admin's "always" runs it, takes the keyboard away and says who decided; the same
// command later runs unasked; every callback query is answered once.
func TestTelegramApprovalKeyboard(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, `"approvals": {"mode": "ask"}`)
	touch := fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch tg-always.txt"}))
	w.LLM.Enqueue(touch, fakellm.Text("made it"), touch, fakellm.Text("made it again"))
	w.run()
	w.tg.Say(group, ada, "@mom_bot make a file")

	q := w.botSays(group, 0, "Approval needed")
	if bs := w.tg.Buttons(group, q.ID); len(bs) != 3 || bs[1].Text != "Allow always in this channel" {
		t.Fatalf("keyboard = %+v", bs)
	}
	data := func(choice string) string {
		for _, b := range w.tg.Buttons(group, q.ID) {
			if strings.HasSuffix(b.Data, ":"+choice) {
				return b.Data
			}
		}
		t.Fatalf("no %s button", choice)
		return ""
	}
	if _, err := w.tg.Press(group, bea, q.ID, data("allow")); err != nil {
		t.Fatal(err)
	}
	w.tg.WaitFor(t, "bea's press to be answered", func() bool {
		a := w.tg.CallbackAnswers()
		return len(a) == 1 && strings.Contains(a[0].Text, "Only an admin")
	})
	if _, err := w.tg.Press(group, ada, q.ID, data("always")); err != nil {
		t.Fatal(err)
	}
	w.botSays(group, 0, "made it")
	w.botSays(group, 0, "Allowed always in this channel by ada")
	if bs := w.tg.Buttons(group, q.ID); len(bs) != 0 {
		t.Errorf("the settled question still shows %+v", bs)
	}
	if _, err := os.Stat(filepath.Join(w.chatDir(group, 0), "scratch", "tg-always.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}

	w.tg.Say(group, ada, "@mom_bot again")
	w.botSays(group, 0, "made it again")
	asked := 0
	for _, m := range w.tg.Messages(group, 0) {
		if strings.Contains(m.Text, "Approval needed") {
			asked++
		}
	}
	if asked != 1 {
		t.Errorf("asked %d times; the command allowed always was asked about again", asked)
	}
	if a := w.tg.CallbackAnswers(); len(a) != 2 || a[1].Text != "" {
		t.Errorf("callback answers = %+v; want bea's refusal and ada's silent acceptance", a)
	}
}
