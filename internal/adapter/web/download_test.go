package web_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWebAttachedFileIsOfferedForDownload: a file the agent attaches is copied into the
// channel's attachments/, announced as mom's message and served only through the
// authenticated route, which never reaches outside attachments/.
func TestWebAttachedFileIsOfferedForDownload(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	report := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(report, []byte("quarterly numbers"), 0o644); err != nil {
		t.Fatal(err)
	}
	ww.LLM.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Share the report", "path": report, "title": "Q3 report"})))
	ww.LLM.Enqueue(fakellm.Text("Here it is."))
	ww.run()
	next := ww.liveFrames()
	next("hello", "")
	if resp, body := ww.Post("general", "bea", "send me the report", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	file := next("message", "Q3 report")["message"].(map[string]any)
	att := file["attachments"].([]any)[0].(map[string]any)
	name := filepath.Base(att["localPath"].(string))
	if file["sender"].(map[string]any)["isBot"] != true || att["filename"] != "report.txt" {
		t.Errorf("file message = %v", file)
	}
	next("run_end", "")

	resp, body := ww.Request("GET", "/api/channels/general/files/"+name, ww.Token(), nil, nil)
	if resp.StatusCode != 200 || body != "quarterly numbers" ||
		resp.Header.Get("Content-Disposition") != "attachment; filename*=UTF-8''report.txt" ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("download: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := ww.Request("GET", "/api/channels/general/files/"+name, "", nil, nil); resp.StatusCode != 401 {
		t.Errorf("download without the token: %d", resp.StatusCode)
	}
	if err := os.Symlink(filepath.Join(ww.Dir, "config.json"), filepath.Join(ww.ChannelDir("web", "general"), "attachments", "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"..%2F..%2F..%2F..%2Fconfig.json", "%2E%2E", ".hidden", "link.json", "..%5Cx", "nope.txt"} {
		if resp, body := ww.Request("GET", "/api/channels/general/files/"+bad, ww.Token(), nil, nil); resp.StatusCode != 404 || strings.Contains(body, "model") {
			t.Errorf("file %s: %d %s", bad, resp.StatusCode, body)
		}
	}
	if resp, _ := ww.Request("GET", "/api/channels/..%2F..%2Fx/files/"+name, ww.Token(), nil, nil); resp.StatusCode != 404 {
		t.Errorf("a channel outside web/: %d", resp.StatusCode)
	}
	lines := apptest.JSONLines(t, filepath.Join(ww.ChannelDir("web", "general"), "log.jsonl"))
	if len(lines) != 3 || lines[1]["text"] != "Q3 report" || lines[2]["text"] != "Here it is." {
		t.Errorf("log.jsonl = %v", lines)
	}
	ww.Stop()
}
