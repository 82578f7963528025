//go:build !nowhatsapp

package whatsapp_test

import (
	"github.com/mom-agent/mom/internal/apptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// TestWhatsAppEditsPastTheWindowBecomeNewMessages: WhatsApp allows edits for 15 minutes. A
// run that outlasts them leaves its status message as it was and goes on in a new message,
// which the answer replaces; with "normal" verbosity the run's digest follows the answer.
func TestWhatsAppEditsPastTheWindowBecomeNewMessages(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "verbosity": "normal"`)
	hold, g := make(chan struct{}), apptest.NewGate(t)
	w.LLM.Enqueue(
		fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]any{"label": "Think hard", "command": g.Command()})}, Hold: hold},
		fakellm.Text("The answer, at last."),
	)
	w.run()
	w.wa.Say(ada, ada, "think about it")
	status := w.momSays(ada, "Thinking…")
	w.wa.Advance(fakewa.EditWindow + time.Minute)
	close(hold)
	step := w.momSays(ada, "Think hard")
	g.Release()
	w.momSays(ada, "The answer, at last.")
	w.momSays(ada, "in, ") // the digest's usage line: "… in, … out"
	w.Stop()

	said := w.wa.MomSaid(ada)
	if len(said) != 3 {
		t.Fatalf("mom said %d messages; want the old status, the answer and the digest:\n%+v", len(said), said)
	}
	if said[0].ID != status.ID || said[0].Text != status.Text {
		t.Errorf("the status message changed past the edit window: %q", said[0].Text)
	}
	if said[1].ID != step.ID || said[1].Text != "The answer, at last." {
		t.Errorf("the answer = %+v; want the new message with the step, edited into the answer", said[1])
	}
	if !strings.Contains(said[2].Text, "✓ bash: Think hard") {
		t.Errorf("the digest = %q; want the tool step", said[2].Text)
	}
}

// TestWhatsAppSilentAnswerLeavesNoTrace: a run that answers [SILENT] takes its status
// message back, posts no digest, and leaves no [SILENT] in the log.
func TestWhatsAppSilentAnswerLeavesNoTrace(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "verbosity": "normal"`)
	w.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Check", "command": "true"})))
	w.LLM.Enqueue(fakellm.Text("[SILENT]"))
	w.run()
	w.mention(family, ada, "anything new?")
	w.WaitRequests(2)
	w.wa.WaitFor(t, "the status message to be taken back", func() bool {
		for _, m := range w.wa.Messages(family) {
			if m.Deleted {
				return true
			}
		}
		return false
	})
	w.Stop()
	if said := w.wa.MomSaid(family); len(said) != 0 {
		t.Errorf("a silent run left %+v", said)
	}
	for _, l := range w.logged(family) {
		if strings.Contains(l, "[SILENT]") {
			t.Errorf("the silent answer is in %s", filepath.Join(w.chatDir(family), "log.jsonl"))
		}
	}
}
