package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWebConversationOverTheAPI sends a message with a file as the page does and follows the
// run on the WebSocket: the person's message, the tool step with its details, the streamed
// answer and the usage line. The file reaches the model by its path; the log has both sides.
func TestWebConversationOverTheAPI(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	ww.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	ww.LLM.Enqueue(fakellm.Text("Done: **hi** from the web"))
	ww.run()
	next := ww.liveFrames()
	next("hello", "")

	resp, body := ww.Post("general", "Ada Lovelace", "@mom please greet", map[string]string{"notes.txt": "remember the milk"})
	if resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	msg := next("message", "please greet")["message"].(map[string]any)
	if msg["text"] != "please greet" || msg["sender"].(map[string]any)["id"] != "web:Ada Lovelace" {
		t.Errorf("message frame = %v", msg)
	}
	start := next("run_start", "")
	tool := next("tool_start", "Say hi")
	if !strings.Contains(tool["args"].(string), "echo hi-from-bash") {
		t.Errorf("tool details lack the command: %v", tool)
	}
	if end := next("tool_end", ""); !strings.Contains(end["output"].(string), "hi-from-bash") || end["isError"] == true {
		t.Errorf("tool result = %v", end)
	}
	var text strings.Builder
	for {
		f := next("", "")
		if f["type"] == "text" {
			text.WriteString(f["text"].(string))
		}
		if f["type"] == "run_end" {
			if f["run"] != start["run"] || f["stopReason"] != "stop" || !strings.Contains(f["usage"].(string), " in, ") {
				t.Errorf("run_end = %v", f)
			}
			break
		}
	}
	if text.String() != "Done: **hi** from the web" {
		t.Errorf("streamed text = %q", text.String())
	}

	prompt := ww.WaitRequests(1)[0].LastUserText()
	attachment := regexp.MustCompile(`/workspace/channels/web/general/attachments/\d+_notes\.txt`)
	if !strings.Contains(prompt, "[Ada Lovelace]: please greet") || !attachment.MatchString(prompt) {
		t.Errorf("the model saw:\n%s", prompt)
	}
	resp, body = ww.Request("GET", "/api/channels/general/messages", ww.Token(), nil, nil)
	var hist struct {
		Messages []struct {
			Text   string
			Sender struct {
				ID    string
				IsBot bool
			}
			Attachments []struct{ Filename, LocalPath string }
		}
	}
	if err := json.Unmarshal([]byte(body), &hist); err != nil || resp.StatusCode != 200 {
		t.Fatalf("history: %d %v\n%s", resp.StatusCode, err, body)
	}
	if len(hist.Messages) != 2 || hist.Messages[0].Sender.ID != "web:Ada Lovelace" || len(hist.Messages[0].Attachments) != 1 ||
		!hist.Messages[1].Sender.IsBot || hist.Messages[1].Text != "Done: **hi** from the web" {
		t.Errorf("history = %+v", hist.Messages)
	}
	saved, err := os.ReadFile(filepath.Join(ww.ChannelDir("web", "general"), filepath.FromSlash(hist.Messages[0].Attachments[0].LocalPath)))
	if err != nil || string(saved) != "remember the milk" {
		t.Errorf("saved attachment: %q, %v", saved, err)
	}
	ww.Stop()
}
