//go:build !nowhatsapp

package whatsapp_test

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/whatsapp"
	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWhatsAppStop: "stop" from someone else is refused; the admin's, in a mention, stops the
// run, and the status message says so.
func TestWhatsAppStop(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "verbosity": "normal"`)
	w.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Wait a long time", "command": "sleep 120"})))
	w.run()
	w.mention(family, ada, "wait for me")
	w.momSays(family, "Wait a long time")
	w.mention(family, bea, "stop")
	w.momSays(family, "who asked for this run, or an admin can stop it")
	w.mention(family, ada, "stop")
	w.momSays(family, "Stopped.")
	w.Stop()
}

// TestWhatsAppBusyReject: a mention during a run is answered "Already working", logged, and
// reaches the next run once, before that run's trigger.
func TestWhatsAppBusyReject(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	g := apptest.NewGate(t)
	w.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Work", "command": g.Command()})),
		fakellm.Text("first answer"),
		fakellm.Text("third answer"),
	)
	w.run()
	w.mention(family, ada, "one")
	g.WaitStarted()
	w.mention(family, ada, "two while busy")
	w.momSays(family, "Already working")
	g.Release()
	w.momSays(family, "first answer")
	w.WaitLog("run finished")
	w.mention(family, ada, "three")
	w.momSays(family, "third answer")
	w.Stop()
	reqs := w.LLM.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests; the turned-away message must not start a run", len(reqs))
	}
	var all []string
	for _, m := range reqs[2].Messages {
		for _, b := range m.Content {
			all = append(all, b.Text)
		}
	}
	text := strings.Join(all, "\n")
	two, three := strings.Index(text, "two while busy"), strings.LastIndex(text, "three")
	if two < 0 || three < two || strings.Count(text, "two while busy") != 1 {
		t.Errorf("the turned-away message must reach the next run once, before its trigger:\n%s", text)
	}
}

// TestWhatsAppBusyQueue: with "busy": "queue" a mention during a run waits its turn.
func TestWhatsAppBusyQueue(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "busy": "queue"`)
	hold := make(chan struct{})
	w.LLM.Enqueue(fakellm.Reply{Text: "first answer", Hold: hold})
	w.LLM.Enqueue(fakellm.Text("second answer"))
	w.run()
	w.mention(family, ada, "one")
	w.WaitRequests(1)
	w.mention(family, ada, "two")
	w.momSays(family, "Queued")
	close(hold)
	w.momSays(family, "first answer")
	w.momSays(family, "second answer")
	w.Stop()
	if reqs := w.LLM.Requests(); len(reqs) != 2 || !strings.HasSuffix(reqs[1].LastUserText(), "two") {
		t.Errorf("%d model requests; want two, the second answering \"two\"", len(reqs))
	}
}

// TestWhatsAppLongAnswerIsSplitWithNothingLost: an answer longer than a message goes on in
// messages below the first, each within the limit and with its code blocks whole, and every
// line of it shows once, in order.
func TestWhatsAppLongAnswerIsSplitWithNothingLost(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	answer := apptest.LongAnswer(30_000)
	w.LLM.Enqueue(fakellm.Text(answer))
	w.run()
	asked := w.mention(family, ada, "tell me everything")
	lines := strings.Split(strings.TrimSpace(answer), "\n")
	w.momSays(family, lines[len(lines)-1])
	w.Stop()

	said := w.wa.MomSaid(family)
	if len(said) < 8 {
		t.Fatalf("the answer came in %d messages; want it split", len(said))
	}
	if said[0].Quotes != asked || !strings.Contains(said[0].Text, "(continued below)") {
		t.Errorf("the first part should quote the question and say the answer goes on: quotes %q, ends %q",
			said[0].Quotes, said[0].Text[max(0, len(said[0].Text)-40):])
	}
	var shown []string
	for i, m := range said {
		if n := len([]rune(m.Text)); n > whatsapp.MaxText {
			t.Errorf("part %d has %d characters; mom sends at most %d", i, n, whatsapp.MaxText)
		}
		if strings.Count(m.Text, "```")%2 != 0 {
			t.Errorf("part %d cuts a code block:\n%s", i, m.Text)
		}
		if i > 0 && m.Quotes != "" {
			t.Errorf("part %d quotes %q; only the first should", i, m.Quotes)
		}
		for _, l := range strings.Split(m.Text, "\n") {
			if l = strings.TrimSpace(l); l != "" && l != "```" && !strings.Contains(l, "(continued below)") {
				shown = append(shown, l)
			}
		}
	}
	var want []string
	for _, l := range lines {
		if l = strings.TrimSpace(l); l != "" && l != "```" {
			want = append(want, l)
		}
	}
	if strings.Join(shown, "\n") != strings.Join(want, "\n") {
		t.Errorf("the parts do not show the answer's %d lines once each, in order (they show %d)", len(want), len(shown))
	}
}
