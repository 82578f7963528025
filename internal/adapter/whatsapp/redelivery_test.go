//go:build !nowhatsapp

package whatsapp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWhatsAppUnacknowledgedMessageComesAgainAndRunsOnce: mom acknowledges a message only
// once it is logged, so when the acknowledgement is lost (mom dies right after logging),
// WhatsApp delivers the message again to the next mom, which knows it from the log: it is
// logged once and answered once.
func TestWhatsAppUnacknowledgedMessageComesAgainAndRunsOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.LLM.Enqueue(fakellm.Text("hello to you"))
	w.run()
	w.wa.DropAcks(true)
	id := w.wa.Say(ada, ada, "hello once")
	w.momSays(ada, "hello to you")
	w.WaitIdle()
	w.Stop()
	if w.wa.Pending() != 1 {
		t.Fatalf("%d messages wait for mom's acknowledgement; the test needs the one whose acknowledgement was lost", w.wa.Pending())
	}
	w.wa.DropAcks(false)
	w.run()
	w.wa.WaitFor(t, "the message to come again and be acknowledged", func() bool {
		return w.wa.Deliveries(id) >= 2 && w.wa.Pending() == 0
	})
	w.Stop()
	if got := w.logged(ada); strings.Count(strings.Join(got, "\n"), "hello once") != 1 {
		t.Errorf("log.jsonl holds %q; want the message once", got)
	}
	if n := len(w.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; want the message answered once", n)
	}
}

// TestWhatsAppRepeatedDeliveryIsLoggedOnce: a message WhatsApp delivers twice while mom runs
// (a retry) is logged and answered once.
func TestWhatsAppRepeatedDeliveryIsLoggedOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.LLM.Enqueue(fakellm.Text("once"))
	w.run()
	id := w.mention(family, ada, "say it once")
	w.momSays(family, "once")
	w.wa.Redeliver(id)
	w.wa.WaitFor(t, "the repeat to be acknowledged", func() bool { return w.wa.Deliveries(id) == 2 && w.wa.Pending() == 0 })
	w.Stop()
	if got := w.logged(family); strings.Count(strings.Join(got, "\n"), "say it once") != 1 {
		t.Errorf("log.jsonl holds %q; want the message once", got)
	}
	if n := len(w.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; want one", n)
	}
}

// sayWhileAway stops mom and has the cast talk meanwhile: chatter in the family group, a
// mention of mom there between it, and a DM.
func (w *waWorld) sayWhileAway() {
	w.t.Helper()
	w.run()
	w.Stop()
	w.wa.Say(family, bea, "first while away")
	w.mention(family, ada, "second while away, to mom")
	w.wa.Say(family, bea, "third while away")
	w.wa.Say(ada, ada, "are you there?")
}

// TestWhatsAppMessagesSentWhileAwayAreAnsweredOnce: what people said while mom was stopped
// arrives when it connects and is logged in order; a mention or DM among it, being recent, is
// answered once, late, and the model is told it waited (the README's Restarts).
func TestWhatsAppMessagesSentWhileAwayAreAnsweredOnce(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.sayWhileAway()
	w.LLM.Enqueue(fakellm.Text("Back now."))
	w.LLM.Enqueue(fakellm.Text("Back now."))
	w.run()
	w.momSays(family, "Back now.")
	w.momSays(ada, "Back now.")
	w.wa.WaitFor(t, "the messages sent while away to be acknowledged", func() bool { return w.wa.Pending() == 0 })
	w.Stop()
	if n := len(w.LLM.Requests()); n != 2 {
		t.Fatalf("%d model requests; want the mention and the DM answered once each", n)
	}
	var group string
	for _, r := range w.LLM.Requests() {
		if p := r.LastUserText(); strings.Contains(p, "second while away") {
			group = p
		}
	}
	first, second := strings.Index(group, "first while away"), strings.Index(group, "second while away")
	if first < 0 || second < first || !strings.Contains(group, "while you were restarting") {
		t.Errorf("the late mention's prompt lacks what came before it, or that it waited:\n%s", group)
	}
	got := strings.Join(w.logged(family), "\n")
	for _, s := range []string{"first while away", "second while away", "third while away"} {
		if strings.Count(got, s) != 1 {
			t.Errorf("the family group's log holds %q %d times; want once:\n%s", s, strings.Count(got, s), got)
		}
	}
	if i, j, k := strings.Index(got, "first while away"), strings.Index(got, "second while away"), strings.Index(got, "third while away"); i > j || j > k {
		t.Errorf("the family group's log is out of order:\n%s", got)
	}
}

// TestWhatsAppMessagesSentWhileAwayOutsideTheWindowAreNotRun: with "resume" off, what people
// said while mom was stopped is logged in order as context and never run, even a DM or a
// mention, and the next run sees it.
func TestWhatsAppMessagesSentWhileAwayOutsideTheWindowAreNotRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	cfg, err := os.ReadFile(filepath.Join(w.Dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	w.WriteConfig(strings.Replace(string(cfg), "{", `{"resume": {"withinMinutes": 0},`, 1))
	w.sayWhileAway()
	w.run()
	w.wa.WaitFor(t, "the messages sent while away to be acknowledged", func() bool { return w.wa.Pending() == 0 })
	w.LLM.Enqueue(fakellm.Text("Back."))
	w.mention(family, ada, "what did I miss?")
	w.momSays(family, "Back.")
	w.Stop()
	if n := len(w.LLM.Requests()); n != 1 {
		t.Fatalf("%d model requests; only the mention after the start may run", n)
	}
	prompt := w.LLM.Requests()[0].LastUserText()
	first, second, third := strings.Index(prompt, "first while away"), strings.Index(prompt, "second while away"), strings.Index(prompt, "third while away")
	if first < 0 || second < first || third < second {
		t.Errorf("the prompt lacks the messages sent while away, in order:\n%s", prompt)
	}
	if got := w.logged(ada); len(got) != 1 || got[0] != "are you there?" {
		t.Errorf("ada's DM logged %q; want her message, unanswered", got)
	}
}

// TestWhatsAppConnectionDropLosesAndDoublesNothing: when the connection drops during a run,
// the answer still arrives once, mom reconnects, and a message said meanwhile reaches the next
// run; no message is logged twice.
func TestWhatsAppConnectionDropLosesAndDoublesNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "busy": "queue"`)
	hold := make(chan struct{})
	w.LLM.Enqueue(fakellm.Reply{Text: "survived the drop", Hold: hold}, fakellm.Text("second run"))
	w.run()
	w.mention(family, ada, "long one")
	w.WaitRequests(1)
	conns := w.wa.Connections()
	w.wa.Drop()
	w.wa.Say(family, bea, "said while the connection was down")
	w.wa.WaitFor(t, "mom to reconnect", func() bool { return w.wa.Connections() > conns && w.wa.Connected() })
	close(hold)
	w.momSays(family, "survived the drop")
	w.mention(family, ada, "anything I missed?")
	w.momSays(family, "second run")
	w.Stop()
	reqs := w.LLM.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d model requests; want no run lost or doubled", len(reqs))
	}
	if !strings.Contains(reqs[1].LastUserText(), "said while the connection was down") {
		t.Errorf("the message sent during the drop was lost:\n%s", reqs[1].LastUserText())
	}
	seen := map[string]int{}
	for _, l := range apptest.JSONLines(t, w.chatDir(family)+"/log.jsonl") {
		seen[l["id"].(string)]++
	}
	for id, n := range seen {
		if n > 1 {
			t.Errorf("message %s was logged %d times", id, n)
		}
	}
}
