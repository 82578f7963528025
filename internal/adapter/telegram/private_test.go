package telegram_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

func TestTelegramPrivateChatShowsProgressTypingAndDetails(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	w.LLM.Enqueue(fakellm.Text("Done: **hi** to @ada & <friends>"))
	w.run()
	w.tg.Say(ada, ada, "please greet me")
	answer := w.botSays(ada, 0, "Done: hi to @ada & <friends>")
	if answer.Edits == 0 || !strings.Contains(answer.HTML, "<b>hi</b>") || !strings.Contains(answer.HTML, "&amp; &lt;friends&gt;") {
		t.Errorf("the answer was not edited into place as HTML: edits %d, %q", answer.Edits, answer.HTML)
	}
	details := w.botSays(ada, 0, "✓ bash")
	if details.ReplyTo != answer.ID || !strings.Contains(details.Text, "echo hi-from-bash") {
		t.Errorf("details %+v should reply to the answer %d and show the command", details, answer.ID)
	}
	usage := w.botSays(ada, 0, " in, ")
	if usage.ReplyTo != answer.ID {
		t.Errorf("the usage summary should reply to the answer")
	}
	w.Stop()
	typing := 0
	for _, a := range w.tg.Actions() {
		if a.ChatID == ada && a.Action == "typing" {
			typing++
		}
	}
	if typing == 0 {
		t.Errorf("mom never showed typing")
	}
	lines := apptest.JSONLines(t, filepath.Join(w.chatDir(ada, 0), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isDM"] != true || lines[0]["sender"].(map[string]any)["username"] != "ada" {
		t.Errorf("log.jsonl = %v", lines)
	}
}
