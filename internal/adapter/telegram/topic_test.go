package telegram_test

import (
	"path/filepath"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

func TestTelegramForumTopicIsAnsweredInTheTopic(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	topic := w.tg.CreateTopic(forum, ada, "Builds")
	w.LLM.Enqueue(fakellm.Calls(fakellm.Call("write", map[string]any{"label": "Write", "path": "out/report.txt", "content": "green"})))
	w.LLM.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/report.txt", "title": "Report"})))
	w.LLM.Enqueue(fakellm.Text("All builds green."))
	w.run()
	w.tg.Say(forum, ada, "@mom_bot status?", faketg.InTopic(topic))
	w.botSays(forum, topic, "All builds green.")
	w.Stop()
	for _, m := range w.tg.Messages(forum, 0) {
		if m.From == w.tg.Bot().ID {
			t.Errorf("the answer leaked out of the topic: %q", m.Text)
		}
	}
	ups := w.tg.Uploads()
	if len(ups) != 1 || ups[0].ChatID != forum || ups[0].Thread != topic || ups[0].Method != "sendDocument" ||
		string(ups[0].Content) != "green" || ups[0].Caption != "Report" {
		t.Errorf("uploads = %+v; want report.txt as a document in the topic", ups)
	}
	if lines := apptest.JSONLines(t, filepath.Join(w.chatDir(forum, topic), "log.jsonl")); len(lines) != 2 {
		t.Errorf("the topic's log has %d lines; want the question and the answer", len(lines))
	}
}
