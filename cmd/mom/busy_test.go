package main

import (
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// allText joins every text of a request, for "was this said" checks.
func allText(r *fakellm.Request) string {
	var parts []string
	for _, m := range r.Messages {
		for _, b := range m.Content {
			parts = append(parts, b.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// TestBusyReject: a message during a run gets "Already working"; it is logged and reaches the
// model with the next run, before that run's trigger.
func TestBusyReject(t *testing.T) {
	w := newWorld(t, withBusy("reject"))
	g := apptest.NewGate(t)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "working", "command": g.Command()})),
		fakellm.Text("first done"),
		fakellm.Text("third done"),
	)
	p := w.start()
	p.send("first")
	g.WaitStarted()
	p.send("second")
	p.waitFor("Already working. Say `stop` to cancel.")
	g.Release()
	p.waitFor("↳ ") // the usage line comes with agent_end, once the run is over
	p.send("third")
	p.waitFor("third done")
	p.quit()

	reqs := w.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3 (the rejected message must not start a run)", len(reqs))
	}
	text := allText(reqs[2])
	second, third := strings.Index(text, "[ada]: second"), strings.Index(text, "[ada]: third")
	if second < 0 || third < 0 || second > third {
		t.Errorf("the rejected message should reach the model before the next trigger:\n%s", text)
	}
	if strings.Count(text, "[ada]: second") != 1 {
		t.Errorf("the rejected message reached the model %d times", strings.Count(text, "[ada]: second"))
	}
}

// TestBusyQueue: a message during a run is answered in a run of its own afterwards.
func TestBusyQueue(t *testing.T) {
	w := newWorld(t, withBusy("queue"))
	g := apptest.NewGate(t)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "working", "command": g.Command()})),
		fakellm.Text("first done"),
		fakellm.Text("second done"),
	)
	p := w.start()
	p.send("first")
	g.WaitStarted()
	p.send("second")
	p.waitFor("Queued: I'll get to this when I'm done.")
	g.Release()
	p.waitFor("second done")
	p.quit()

	reqs := w.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want 3", len(reqs))
	}
	if got := reqs[2].LastUserText(); !strings.HasSuffix(got, "[ada]: second") {
		t.Errorf("the queued run's trigger = %q", got)
	}
	if strings.Contains(allText(reqs[1]), "second") {
		t.Errorf("the queued message leaked into the first run:\n%s", allText(reqs[1]))
	}
	if strings.Contains(p.out.String(), "Already working") {
		t.Errorf("queue mode rejected a message:\n%s", p.out)
	}
}

// TestBusySteer: a message during a run is delivered at the next tool boundary; the turn's
// remaining tool calls are skipped and the model reads the message in the same run.
func TestBusySteer(t *testing.T) {
	w := newWorld(t, withBusy("steer"))
	g := apptest.NewGate(t)
	never := filepath.Join(t.TempDir(), "never")
	w.llm.Enqueue(
		fakellm.Calls(
			fakellm.ToolCall{ID: "toolu_gate", Name: "bash", Args: map[string]any{"label": "working", "command": g.Command()}},
			fakellm.ToolCall{ID: "toolu_skip", Name: "bash", Args: map[string]any{"label": "more work", "command": "touch " + never}},
		),
		fakellm.Text("changed course"),
	)
	p := w.start()
	p.send("first")
	g.WaitStarted()
	p.send("actually, do something else")
	p.waitFor("Noted: I'll take this into account at my next step.")
	g.Release()
	p.waitFor("changed course")
	p.quit()

	reqs := w.llm.Requests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (steering continues the same run)", len(reqs))
	}
	res, _ := reqs[1].ToolResult("toolu_skip")
	if !res.IsError || !strings.Contains(res.Text, "Skipped due to queued user message") {
		t.Errorf("the remaining call's result = %+v", res)
	}
	if _, err := os.Stat(never); err == nil {
		t.Error("the skipped command ran")
	}
	if got := reqs[1].LastUserText(); !strings.Contains(got, "[ada]: actually, do something else") {
		t.Errorf("the steering message = %q", got)
	}
	// The steered message is in the context once; a later run must not add it again.
	w.llm.Enqueue(fakellm.Text("ok"))
	w.mom("", "run", w.dir, "-c", "terminal/local", "-m", "next")
	if n := strings.Count(allText(w.llm.Requests()[2]), "do something else"); n != 1 {
		t.Errorf("the steered message reached the model %d times in the next run", n)
	}
}
