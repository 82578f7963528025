//go:build !nowhatsapp

package whatsapp_test

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// TestWhatsAppGroupTriggers: in a group, a mention of mom's number, a reply to one of its
// messages and the configured prefix start a run, and the answer quotes the message that
// asked; other messages are only logged, and reach the model as context.
func TestWhatsAppGroupTriggers(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "prefix": "mom,", "busy": "queue"`)
	w.run()
	w.wa.Say(family, bea, "lunch at noon?")
	w.wa.Say(family, bea, "@"+ada.User+" are you coming?", fakewa.Mentioning(ada))
	w.LLM.Enqueue(fakellm.Text("Noted, first."))
	asked := w.mention(family, ada, "what did bea say?")
	first := w.momSays(family, "Noted, first.")
	if first.Quotes != asked {
		t.Errorf("the answer quotes %q; want the message that asked, %q", first.Quotes, asked)
	}
	prompt := w.WaitRequests(1)[0].LastUserText()
	for _, want := range []string{"lunch at noon?", "@Ada_Lovelace are you coming?", "what did bea say?"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model's prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "@"+mom.User) {
		t.Errorf("mom's own mention was not taken out:\n%s", prompt)
	}

	w.LLM.Enqueue(fakellm.Text("Noted, second."))
	w.wa.Say(family, bea, "and tomorrow?", fakewa.ReplyTo(first.ID))
	w.momSays(family, "Noted, second.")
	w.LLM.Enqueue(fakellm.Text("Noted, third."))
	w.wa.Say(family, ada, "Mom, a summary please")
	w.momSays(family, "Noted, third.")
	w.wa.Say(family, bea, "mommy is a word, not a prefix with a comma")
	w.wa.WaitFor(t, "the last message to be logged", func() bool { return w.wa.Pending() == 0 })
	w.Stop()

	reqs := w.LLM.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests; want the mention, the reply and the prefix to run, nothing else", len(reqs))
	}
	if got := reqs[2].LastUserText(); !strings.HasSuffix(got, "a summary please") || strings.Contains(got, "Mom,") {
		t.Errorf("the prefixed message reached the model as %q; want it without the prefix", got)
	}
	lines := apptest.JSONLines(t, w.chatDir(family)+"/log.jsonl")
	var chatter []string
	for _, l := range lines {
		if l["isMention"] != true && l["sender"].(map[string]any)["isBot"] != true {
			chatter = append(chatter, l["text"].(string))
		}
	}
	if len(chatter) != 3 {
		t.Errorf("logged as chatter: %q; want bea's three messages that do not address mom", chatter)
	}
}

// TestWhatsAppMentionInAGroupThatHidesNumbers: a group that hides numbers names people, mom
// too, by hidden ids; mom learns its own from the group's participants, answers the mention,
// and still knows the sender by number.
func TestWhatsAppMentionInAGroupThatHidesNumbers(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.LLM.Enqueue(fakellm.Text("Hello, club."))
	w.run()
	tag := w.wa.Tag(mom, club)
	if tag == "@"+mom.User {
		t.Fatalf("the club should mention mom by its hidden id, not %s", tag)
	}
	asked := w.mention(club, ada, "hello")
	if answer := w.momSays(club, "Hello, club."); answer.Quotes != asked {
		t.Errorf("the answer quotes %q, want %q", answer.Quotes, asked)
	}
	w.Stop()
	line := apptest.JSONLines(t, w.chatDir(club)+"/log.jsonl")[0]
	if line["text"] != "hello" || line["isMention"] != true || line["sender"].(map[string]any)["id"] != "+431111111" {
		t.Errorf("the mention was logged as %v", line)
	}
}
