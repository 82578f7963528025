//go:build !nowhatsapp

package whatsapp_test

import (
	"testing"

	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWhatsAppDMAnswered: a 1:1 chat is a DM. The admin's message runs; mom shows "typing…"
// and marks the message read as it starts, and its status message becomes the answer. The log
// names her by number and by the address book's name.
func TestWhatsAppDMAnswered(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.LLM.Enqueue(fakellm.Text("Hello Ada."))
	w.run()
	asked := w.wa.Say(ada, ada, "hi mom")
	answer := w.momSays(ada, "Hello Ada.")
	w.Stop()

	if said := w.wa.MomSaid(ada); len(said) != 1 || answer.Edits == 0 || answer.Quotes != "" {
		t.Errorf("mom said %+v; want one message, the status edited into the answer, quoting nothing in a DM", said)
	}
	typing := false
	for _, p := range w.wa.Presences() {
		typing = typing || p.Chat == ada && p.State == types.ChatPresenceComposing
	}
	if !typing {
		t.Errorf("presences %+v; want typing in ada's chat", w.wa.Presences())
	}
	reads := w.wa.Reads()
	if len(reads) != 1 || reads[0].Chat != ada || reads[0].Sender != ada || len(reads[0].IDs) != 1 || reads[0].IDs[0] != asked {
		t.Errorf("read receipts %+v; want one for ada's message", reads)
	}
	lines := apptest.JSONLines(t, w.chatDir(ada)+"/log.jsonl")
	if len(lines) != 2 {
		t.Fatalf("log.jsonl has %d lines, want ada's message and the answer", len(lines))
	}
	sender := lines[0]["sender"].(map[string]any)
	if sender["id"] != "+431111111" || sender["displayName"] != "Ada Lovelace" || sender["username"] != "Ada_Lovelace" ||
		lines[0]["isDM"] != true || lines[0]["id"] != string(asked) {
		t.Errorf("ada's message was logged as %v", lines[0])
	}
	if bot := lines[1]["sender"].(map[string]any); bot["id"] != "+43660000001" || bot["isBot"] != true {
		t.Errorf("the answer was logged from %v, want mom's number", bot)
	}
}

// TestWhatsAppDMPolicy: with "dm": "none" a stranger's DM is logged and refused once; the
// admin, written as a JID in config.json, is answered.
func TestWhatsAppDMPolicy(t *testing.T) {
	t.Parallel()
	w := newWorld(t, `"admins": ["431111111@s.whatsapp.net"], "dm": "none"`)
	w.run()
	w.wa.Say(bea, bea, "hi mom")
	w.momSays(bea, "only take direct messages")
	w.wa.Say(bea, bea, "hello?")
	w.LLM.Enqueue(fakellm.Text("Hi boss."))
	w.wa.Say(ada, ada, "hi")
	w.momSays(ada, "Hi boss.")
	w.Stop()
	if n := len(w.wa.MomSaid(bea)); n != 1 {
		t.Errorf("the refused person was answered %d times; want one refusal", n)
	}
	if n := len(w.LLM.Requests()); n != 1 {
		t.Errorf("%d model requests; only the admin's DM may reach the model", n)
	}
	if got := w.logged(bea); len(got) != 2 || got[0] != "hi mom" || got[1] != "hello?" {
		t.Errorf("bea's chat logged %q; want both her messages", got)
	}
}
