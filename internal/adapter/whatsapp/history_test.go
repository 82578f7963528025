//go:build !nowhatsapp

package whatsapp_test

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"go.mau.fi/whatsmeow/proto/waHistorySync"
	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

const day = 24 * time.Hour

// TestWhatsAppHistoryIsLoggedAsContextNeverRun: with "historyDays", the history the phone
// shares after linking goes into the chats' logs, each chat's messages in the order they were
// sent, as far back as historyDays and no further; none of it is run, not even a recent
// mention or DM, and the next mention's run reads it as context.
func TestWhatsAppHistoryIsLoggedAsContextNeverRun(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin+`, "historyDays": 3`)
	w.LLM.Enqueue(fakellm.Text("At nine, from pier 2."))
	w.run()
	now := w.wa.Now()
	w.wa.SendHistory(waHistorySync.HistorySync_INITIAL_BOOTSTRAP,
		fakewa.Past{Chat: family, From: ada, Text: "ten days ago, long forgotten", At: now.Add(-10 * day)},
		fakewa.Past{Chat: family, From: bea, Text: "the ferry leaves at nine", At: now.Add(-2 * day),
			Options: []fakewa.SayOption{fakewa.WithImage([]byte("\xff\xd8\xff\xe0 a timetable"), "image/jpeg")}},
		fakewa.Past{Chat: family, From: ada, Text: w.wa.Tag(mom, family) + " remind us on Friday", At: now.Add(-5 * time.Minute),
			Options: []fakewa.SayOption{fakewa.Mentioning(mom)}},
		fakewa.Past{Chat: family, From: mom, Text: "noted", At: now.Add(-2*day + time.Minute)},
		fakewa.Past{Chat: ada, From: ada, Text: "last week's question", At: now.Add(-7 * day)},
		fakewa.Past{Chat: ada, From: ada, Text: "are you there?", At: now.Add(-3 * time.Minute)},
		fakewa.Past{Chat: bea, From: bea, Text: "a chat of five days ago", At: now.Add(-5 * day)},
	)
	w.waitLogged(family, 3)
	w.waitLogged(ada, 1)
	if n := len(w.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests after the history came; history is never run", n)
	}

	w.mention(family, ada, "when does the ferry leave?")
	w.momSays(family, "At nine, from pier 2.")
	w.Stop()

	want := []string{"the ferry leaves at nine", "noted", "remind us on Friday", "when does the ferry leave?", "At nine, from pier 2."}
	if got := w.logged(family); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("the group's log holds %q; want %q", got, want)
	}
	lines := apptest.JSONLines(t, w.chatDir(family)+"/log.jsonl")
	att, _ := lines[0]["attachments"].([]any)
	if len(att) != 1 || att[0].(map[string]any)["localPath"] != "" || !strings.Contains(att[0].(map[string]any)["error"].(string), "not downloaded") {
		t.Errorf("the picture of the history should be noted as not downloaded: %v", lines[0]["attachments"])
	}
	if s := lines[1]["sender"].(map[string]any); s["isBot"] != true {
		t.Errorf("what mom's phone said is logged as said by %v; want mom", s)
	}
	if lines[2]["isMention"] != false {
		t.Errorf("an imported mention is logged as one (%v); it must never start a run", lines[2]["isMention"])
	}
	if got := w.logged(ada); len(got) != 1 || got[0] != "are you there?" {
		t.Errorf("ada's chat logs %q; want only the message within historyDays", got)
	}
	if _, err := os.Stat(w.chatDir(bea)); !os.IsNotExist(err) {
		t.Errorf("bea's chat, older than historyDays, has a channel directory (%v)", err)
	}
	if strings.Contains(w.Log(), "answering a message sent while mom was not running") {
		t.Error("mom answered a message of the imported history")
	}

	reqs := w.LLM.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d model requests; want one, for the live mention", len(reqs))
	}
	text := requestText(reqs[0])
	ferry, ask := strings.Index(text, "the ferry leaves at nine"), strings.LastIndex(text, "when does the ferry leave?")
	if ferry < 0 || ask < ferry || !strings.Contains(text, "remind us on Friday") {
		t.Errorf("the run should read the imported history before its trigger:\n%s", text)
	}
	if strings.Contains(text, "long forgotten") {
		t.Errorf("the run reads a message older than historyDays:\n%s", text)
	}
}

// TestWhatsAppHistoryDaysZeroImportsNothing: without "historyDays" the phone's history is
// not logged, and no run reads it.
func TestWhatsAppHistoryDaysZeroImportsNothing(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	w.LLM.Enqueue(fakellm.Text("Hello."))
	w.run()
	w.wa.SendHistory(waHistorySync.HistorySync_INITIAL_BOOTSTRAP,
		fakewa.Past{Chat: family, From: bea, Text: "yesterday's news", At: w.wa.Now().Add(-day)})
	// The history would be on the group's lane before this mention, so its answer comes after.
	w.mention(family, ada, "hi")
	w.momSays(family, "Hello.")
	w.Stop()
	if got := w.logged(family); strings.Join(got, "|") != "hi|Hello." {
		t.Errorf("the group's log holds %q; want only the mention and the answer", got)
	}
	if reqs := w.LLM.Requests(); len(reqs) != 1 || strings.Contains(requestText(reqs[0]), "yesterday's news") {
		t.Errorf("the run reads the history that was not to be imported")
	}
}

// waitLogged waits until a chat's log.jsonl holds n lines.
func (w *waWorld) waitLogged(chat types.JID, n int) {
	w.t.Helper()
	path := w.chatDir(chat) + "/log.jsonl"
	apptest.Eventually(w.t, "the history to be logged in "+chat.String(), func() bool {
		data, err := os.ReadFile(path)
		return err == nil && bytes.Count(data, []byte("\n")) >= n
	})
}

// requestText is the text of a model request's messages, in order.
func requestText(r *fakellm.Request) string {
	var all []string
	for _, m := range r.Messages {
		for _, b := range m.Content {
			all = append(all, b.Text)
		}
	}
	return strings.Join(all, "\n")
}
