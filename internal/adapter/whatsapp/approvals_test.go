//go:build !nowhatsapp

package whatsapp_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWhatsAppApprovalByTypedReply: WhatsApp has no buttons for a bot, so the request says
// to reply yes, always or no; bea, who may not decide, is refused when she addresses mom and
// ignored when she does not; ada's "yes" runs the command.
func TestWhatsAppApprovalByTypedReply(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "approvals": {"mode": "ask"}`)
	w.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch wa-typed.txt"})),
		fakellm.Text("made it"),
	)
	w.run()
	w.mention(family, ada, "make a file")
	q := w.momSays(family, "Approval needed")
	if !strings.Contains(q.Text, "touch wa-typed.txt") || !strings.Contains(q.Text, "Reply *yes*") {
		t.Errorf("the request does not say what runs and how to answer:\n%s", q.Text)
	}
	w.wa.Say(family, bea, "no")
	w.mention(family, bea, "yes")
	w.momSays(family, "Only an admin can decide this")
	if _, err := os.Stat(filepath.Join(w.chatDir(family), "scratch", "wa-typed.txt")); err == nil {
		t.Fatal("bea's answer ran the command")
	}
	w.wa.Say(family, ada, "yes")
	w.momSays(family, "made it")
	w.momSays(family, "Allowed by")
	if _, err := os.Stat(filepath.Join(w.chatDir(family), "scratch", "wa-typed.txt")); err != nil {
		t.Errorf("ada's yes did not run the command: %v", err)
	}
	w.Stop()
}
