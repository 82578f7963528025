package web_test

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWebBadInputIsRefusedWithAReason: every malformed request gets a status and a message the
// page can show, and nothing half-done stays behind.
func TestWebBadInputIsRefusedWithAReason(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	ww.run()
	json := http.Header{"Content-Type": {"application/json"}}
	for _, tt := range []struct {
		method, path, body string
		status             int
		want               string
	}{
		{"POST", "/api/channels", `{"name": "Ops Team"}`, 400, `may use only lowercase letters`},
		{"POST", "/api/channels", `{"name": ""}`, 400, `a channel needs a name`},
		{"POST", "/api/channels", `{"name": "` + strings.Repeat("a", 41) + `"}`, 400, `at most 40 characters`},
		{"POST", "/api/channels", `not json`, 400, `send the new channel as JSON`},
		{"POST", "/api/channels/general/messages", `{"text": "hi"}`, 400, `multipart/form-data`},
		{"POST", "/api/channels/general/stop", `{"name": ""}`, 400, `pick a display name first`},
		{"POST", "/api/channels/general/stop", `{"name": "MOM"}`, 400, `\"MOM\" reads as mom's own name; pick another`},
		{"POST", "/api/name", `{"name": " m.o.m "}`, 400, `\"m.o.m\" reads as mom's own name; pick another`},
		{"POST", "/api/name", `{"name": "\u00a0\u2028"}`, 400, `pick a display name first`},
		{"POST", "/api/name", `{"name": "a\u001b[2Jb"}`, 400, `may use letters, digits`},
		{"POST", "/api/name", `{"name": "  Ada   Lovelace "}`, 200, `{"name":"Ada Lovelace"}`},
		{"GET", "/api/channels/..%2Fslack/messages", ``, 404, `may use only lowercase letters`},
		{"GET", "/api/channels/general/messages?limit=0", ``, 400, `limit must be a number from 1 to 2000`},
		{"GET", "/api/channels/general/messages?runsFrom=-1", ``, 400, `runsFrom must be an offset in log.jsonl (a number from 0 up), not \"-1\"`},
		{"GET", "/api/channels/general/messages?runsFrom=end", ``, 400, `runsFrom must be an offset in log.jsonl`},
	} {
		resp, body := ww.Request(tt.method, tt.path, ww.Token(), strings.NewReader(tt.body), json)
		if resp.StatusCode != tt.status || !strings.Contains(body, tt.want) {
			t.Errorf("%s %s %s: %d %s; want %d %q", tt.method, tt.path, tt.body, resp.StatusCode, body, tt.status, tt.want)
		}
	}
	for _, tt := range []struct{ name, text, want string }{
		{"", "hi", "pick a display name first"},
		{"<script>", "hi", "may use letters, digits"},
		{"Mom", "hi", `\"Mom\" reads as mom's own name; pick another, so nobody takes your words for mom's`},
		{"ada", "  ", "the message is empty"},
	} {
		if resp, body := ww.Post("general", tt.name, tt.text, nil); resp.StatusCode != 400 || !strings.Contains(body, tt.want) {
			t.Errorf("name %q text %q: %d %s", tt.name, tt.text, resp.StatusCode, body)
		}
	}
	big := strings.Repeat("x", 25<<20+1)
	if resp, body := ww.Post("general", "ada", "", map[string]string{"small.txt": "ok", "big.bin": big}); resp.StatusCode != 413 ||
		!strings.Contains(body, "big.bin is larger than the limit of 25 MB") {
		t.Errorf("a file over the limit: %d %s", resp.StatusCode, body)
	}
	if entries, _ := os.ReadDir(filepath.Join(ww.ChannelDir("web", "general"), "attachments")); len(entries) != 0 {
		t.Errorf("a refused message left files behind: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(ww.ChannelDir("web", "general"), "log.jsonl")); err == nil {
		t.Errorf("a refused message was logged")
	}
	if n := len(ww.LLM.Requests()); n != 0 {
		t.Errorf("%d model requests for refused messages", n)
	}
	ww.Stop()
}
