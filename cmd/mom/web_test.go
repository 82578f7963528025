package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// The web chat tests run the real binary with a web adapter on a free loopback port and talk
// to it as a browser would: the HTTP API and the WebSocket.

// webWorld is a data directory whose config has one web adapter, "web", on a free port.
type webWorld struct {
	*world
	p     *proc
	base  string // http://127.0.0.1:port/
	token string
}

// newWebWorld writes a config with the web chat; more adds adapters to "adapters".
func newWebWorld(t testing.TB, settings, more string) *webWorld {
	t.Helper()
	w := newWorld(t)
	if settings != "" {
		settings = ", " + settings
	}
	if more != "" {
		more = ", " + more
	}
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "sandbox": {"type": "host"},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {"web": {"type": "web", "listen": "127.0.0.1:0"%s}%s},
}`, w.llm.URL(), settings, more))
	return &webWorld{world: w}
}

// run starts mom and reads the chat's address and token from what it prints.
func (ww *webWorld) run() *proc {
	ww.t.Helper()
	ww.p = ww.start()
	ww.p.waitForErr("Web chat: http://")
	ww.p.waitForErr("mom is running")
	base, token, ok := fakeweb.Announced(ww.p.err.String())
	if !ok {
		ww.t.Fatalf("no web chat address in:\n%s", ww.p.err)
	}
	ww.base, ww.token = base, token
	if ww.token == "" {
		b, err := os.ReadFile(filepath.Join(ww.dir, "web.token"))
		if err != nil {
			ww.t.Fatal(err)
		}
		ww.token = strings.TrimSpace(string(b))
	}
	return ww.p
}

// stop sends SIGTERM and expects a clean exit.
func (ww *webWorld) stop() {
	ww.t.Helper()
	ww.p.terminate()
}

// request sends a request with the token (unless token is "") and returns the answer and its
// body.
func (ww *webWorld) request(method, path, token string, body io.Reader, header http.Header) (*http.Response, string) {
	ww.t.Helper()
	resp, b, err := fakeweb.Call(ww.base, method, path, token, body, header)
	if err != nil {
		ww.t.Fatal(err)
	}
	return resp, b
}

// post sends a message as the page does: a multipart form with name, text and files.
func (ww *webWorld) post(channel, name, text string, files map[string]string) (*http.Response, string) {
	ww.t.Helper()
	body, header := fakeweb.MessageForm(name, text, files)
	return ww.request("POST", "/api/channels/"+channel+"/messages", ww.token, body, header)
}

// openTab connects a WebSocket, as a page does when it opens, and reads the replay of the
// runs in progress up to hello.
func (ww *webWorld) openTab() *fakeweb.Tab {
	ww.t.Helper()
	return fakeweb.OpenTab(ww.t, ww.base, ww.token, ww.p.err.String)
}

// liveFrames connects to the WebSocket and returns a function that waits for the next frame
// matching a type (and, when set, whose text contains want).
func (ww *webWorld) liveFrames() func(typ, want string) map[string]any {
	ww.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ww.t.Cleanup(cancel)
	conn, err := fakeweb.Dial(ctx, ww.base, ww.token)
	if err != nil {
		ww.t.Fatalf("WebSocket: %v", err)
	}
	ww.t.Cleanup(func() { conn.CloseNow() })
	return func(typ, want string) map[string]any {
		ww.t.Helper()
		rctx, rcancel := context.WithTimeout(ctx, hangGuard)
		defer rcancel()
		for {
			_, b, err := conn.Read(rctx)
			if err != nil {
				ww.t.Fatalf("waiting for a %s frame with %q: %v\nstderr:\n%s", typ, want, err, ww.p.err)
			}
			var f map[string]any
			if err := json.Unmarshal(b, &f); err != nil {
				ww.t.Fatalf("frame %s: %v", b, err)
			}
			if (typ == "" || f["type"] == typ) && (want == "" || strings.Contains(string(b), want)) {
				return f
			}
		}
	}
}

// TestWebEveryRouteNeedsTheToken: without the token, or with a wrong one, every page, API call
// and the WebSocket answer 401 and show nothing; only the health endpoints answer, and they
// say nothing but whether mom is up.
func TestWebEveryRouteNeedsTheToken(t *testing.T) {
	ww := newWebWorld(t, "", "")
	ww.run()
	routes := []struct{ method, path string }{
		{"GET", "/"}, {"GET", "/?token=wrong"}, {"GET", "/assets/app.js"}, {"GET", "/assets/index.html"}, {"GET", "/ws"},
		{"GET", "/api/channels"}, {"POST", "/api/channels"}, {"GET", "/api/channels/general/messages"},
		{"POST", "/api/channels/general/messages"}, {"POST", "/api/channels/general/stop"},
		{"GET", "/api/channels/general/files/x.txt"}, {"GET", "/api/events"}, {"POST", "/api/name"}, {"GET", "/no/such/page"},
	}
	for _, r := range routes {
		for _, token := range []string{"", "not-the-token"} {
			resp, body := ww.request(r.method, r.path, token, strings.NewReader(`{"name":"x"}`), nil)
			if resp.StatusCode != http.StatusUnauthorized || strings.Contains(body, "mom.name") || strings.Contains(body, "general") {
				t.Errorf("%s %s with token %q: %d\n%s", r.method, r.path, token, resp.StatusCode, body)
			}
		}
	}
	u := "ws" + strings.TrimPrefix(ww.base, "http") + "ws"
	if _, resp, err := websocket.Dial(context.Background(), u, nil); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("WebSocket without the token: %v, %v", err, resp)
	}
	for path, want := range map[string]string{"/healthz": "ok\n", "/readyz": "ready\n"} {
		if resp, body := ww.request("GET", path, "", nil, nil); resp.StatusCode != 200 || body != want {
			t.Errorf("%s = %d %q, want 200 %q", path, resp.StatusCode, body, want)
		}
	}

	// The printed address sets a cookie and drops the token from the address bar; the cookie
	// then opens everything.
	resp, _ := ww.request("GET", "/?token="+ww.token, "", nil, nil)
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/" || len(resp.Cookies()) != 1 {
		t.Fatalf("visit with the token: %d, location %q, cookies %v", resp.StatusCode, resp.Header.Get("Location"), resp.Cookies())
	}
	c := resp.Cookies()[0]
	if !c.HttpOnly || c.SameSite != http.SameSiteStrictMode || c.Value != ww.token {
		t.Errorf("cookie = %+v", c)
	}
	resp, body := ww.request("GET", "/", "", nil, http.Header{"Cookie": {c.Name + "=" + c.Value}})
	if resp.StatusCode != 200 || !strings.Contains(body, "/assets/app.js") || resp.Header.Get("Content-Security-Policy") == "" {
		t.Errorf("page with the cookie: %d %v\n%s", resp.StatusCode, resp.Header, body)
	}
	if resp, _ := ww.request("GET", "/api/channels?token="+url.QueryEscape(ww.token), "", nil, nil); resp.StatusCode != 200 {
		t.Errorf("token in the query: %d", resp.StatusCode)
	}
	ww.stop()
}

// TestWebConversationOverTheAPI sends a message with a file as the page does and follows the
// run on the WebSocket: the person's message, the tool step with its details, the streamed
// answer and the usage line. The file reaches the model by its path; the log has both sides.
func TestWebConversationOverTheAPI(t *testing.T) {
	ww := newWebWorld(t, "", "")
	ww.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	ww.llm.Enqueue(fakellm.Text("Done: **hi** from the web"))
	ww.run()
	next := ww.liveFrames()
	next("hello", "")

	resp, body := ww.post("general", "Ada Lovelace", "@mom please greet", map[string]string{"notes.txt": "remember the milk"})
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

	prompt := ww.waitRequests(1)[0].LastUserText()
	attachment := regexp.MustCompile(`/workspace/channels/web/general/attachments/\d+_notes\.txt`)
	if !strings.Contains(prompt, "[Ada Lovelace]: please greet") || !attachment.MatchString(prompt) {
		t.Errorf("the model saw:\n%s", prompt)
	}
	resp, body = ww.request("GET", "/api/channels/general/messages", ww.token, nil, nil)
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
	saved, err := os.ReadFile(filepath.Join(ww.channelDir("web", "general"), filepath.FromSlash(hist.Messages[0].Attachments[0].LocalPath)))
	if err != nil || string(saved) != "remember the milk" {
		t.Errorf("saved attachment: %q, %v", saved, err)
	}
	ww.stop()
}

// TestWebAttachedFileIsOfferedForDownload: a file the agent attaches is copied into the
// channel's attachments/, announced as mom's message and served only through the
// authenticated route, which never reaches outside attachments/.
func TestWebAttachedFileIsOfferedForDownload(t *testing.T) {
	ww := newWebWorld(t, "", "")
	report := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(report, []byte("quarterly numbers"), 0o644); err != nil {
		t.Fatal(err)
	}
	ww.llm.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Share the report", "path": report, "title": "Q3 report"})))
	ww.llm.Enqueue(fakellm.Text("Here it is."))
	ww.run()
	next := ww.liveFrames()
	next("hello", "")
	if resp, body := ww.post("general", "bea", "send me the report", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	file := next("message", "Q3 report")["message"].(map[string]any)
	att := file["attachments"].([]any)[0].(map[string]any)
	name := filepath.Base(att["localPath"].(string))
	if file["sender"].(map[string]any)["isBot"] != true || att["filename"] != "report.txt" {
		t.Errorf("file message = %v", file)
	}
	next("run_end", "")

	resp, body := ww.request("GET", "/api/channels/general/files/"+name, ww.token, nil, nil)
	if resp.StatusCode != 200 || body != "quarterly numbers" ||
		resp.Header.Get("Content-Disposition") != "attachment; filename*=UTF-8''report.txt" ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("download: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	if resp, _ := ww.request("GET", "/api/channels/general/files/"+name, "", nil, nil); resp.StatusCode != 401 {
		t.Errorf("download without the token: %d", resp.StatusCode)
	}
	if err := os.Symlink(filepath.Join(ww.dir, "config.json"), filepath.Join(ww.channelDir("web", "general"), "attachments", "link.json")); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []string{"..%2F..%2F..%2F..%2Fconfig.json", "%2E%2E", ".hidden", "link.json", "..%5Cx", "nope.txt"} {
		if resp, body := ww.request("GET", "/api/channels/general/files/"+bad, ww.token, nil, nil); resp.StatusCode != 404 || strings.Contains(body, "model") {
			t.Errorf("file %s: %d %s", bad, resp.StatusCode, body)
		}
	}
	if resp, _ := ww.request("GET", "/api/channels/..%2F..%2Fx/files/"+name, ww.token, nil, nil); resp.StatusCode != 404 {
		t.Errorf("a channel outside web/: %d", resp.StatusCode)
	}
	lines := jsonLines(t, filepath.Join(ww.channelDir("web", "general"), "log.jsonl"))
	if len(lines) != 3 || lines[1]["text"] != "Q3 report" || lines[2]["text"] != "Here it is." {
		t.Errorf("log.jsonl = %v", lines)
	}
	ww.stop()
}

// TestWebBadInputIsRefusedWithAReason: every malformed request gets a status and a message the
// page can show, and nothing half-done stays behind.
func TestWebBadInputIsRefusedWithAReason(t *testing.T) {
	ww := newWebWorld(t, "", "")
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
		resp, body := ww.request(tt.method, tt.path, ww.token, strings.NewReader(tt.body), json)
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
		if resp, body := ww.post("general", tt.name, tt.text, nil); resp.StatusCode != 400 || !strings.Contains(body, tt.want) {
			t.Errorf("name %q text %q: %d %s", tt.name, tt.text, resp.StatusCode, body)
		}
	}
	big := strings.Repeat("x", 25<<20+1)
	if resp, body := ww.post("general", "ada", "", map[string]string{"small.txt": "ok", "big.bin": big}); resp.StatusCode != 413 ||
		!strings.Contains(body, "big.bin is larger than the limit of 25 MB") {
		t.Errorf("a file over the limit: %d %s", resp.StatusCode, body)
	}
	if entries, _ := os.ReadDir(filepath.Join(ww.channelDir("web", "general"), "attachments")); len(entries) != 0 {
		t.Errorf("a refused message left files behind: %v", entries)
	}
	if _, err := os.Stat(filepath.Join(ww.channelDir("web", "general"), "log.jsonl")); err == nil {
		t.Errorf("a refused message was logged")
	}
	if n := len(ww.llm.Requests()); n != 0 {
		t.Errorf("%d model requests for refused messages", n)
	}
	ww.stop()
}

// TestWebRefusesOtherSites: a page on another site can neither open the WebSocket nor post,
// even with the token (a browser would add the cookie).
func TestWebRefusesOtherSites(t *testing.T) {
	ww := newWebWorld(t, "", "")
	ww.run()
	u := "ws" + strings.TrimPrefix(ww.base, "http") + "ws"
	h := http.Header{"Authorization": {"Bearer " + ww.token}, "Origin": {"http://evil.example"}}
	if _, resp, err := websocket.Dial(context.Background(), u, &websocket.DialOptions{HTTPHeader: h}); err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Errorf("WebSocket from another origin: %v, %v", err, resp)
	}
	resp, body := ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name": "x"}`), http.Header{"Origin": {"http://evil.example"}})
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(body, "another site") {
		t.Errorf("POST from another origin: %d %s", resp.StatusCode, body)
	}
	resp, _ = ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name": "x"}`), http.Header{"Origin": {strings.TrimSuffix(ww.base, "/")}})
	if resp.StatusCode != http.StatusCreated {
		t.Errorf("POST from the chat's own origin: %d", resp.StatusCode)
	}
	ww.stop()
}

// TestWebChannelsAndEvents: channels made from the page appear in the list and take
// messages; the events list shows each event's next fire times and invalid files' reasons.
func TestWebChannelsAndEvents(t *testing.T) {
	ww := newWebWorld(t, "", "")
	evDir := filepath.Join(ww.dir, "workspace", "events")
	os.MkdirAll(evDir, 0o755)
	os.WriteFile(filepath.Join(evDir, "standup.json"), []byte(`{"type": "periodic", "channelId": "web/ops", "text": "standup", "schedule": "0 9 * * 1-5", "timezone": "Europe/Vienna"}`), 0o644)
	os.WriteFile(filepath.Join(evDir, "broken.json"), []byte(`{"type": "sometimes"}`), 0o644)
	ww.run()
	resp, body := ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name": "ops"}`), nil)
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if _, body := ww.request("GET", "/api/channels", ww.token, nil, nil); !strings.Contains(body, `{"id":"general"`) || !strings.Contains(body, `{"id":"ops"`) {
		t.Errorf("channels = %s", body)
	}
	ww.llm.Enqueue(fakellm.Text("ops here"))
	if resp, body := ww.post("ops", "ada", "status?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	waitForFile(t, filepath.Join(ww.channelDir("web", "ops"), "context.jsonl"))

	_, body = ww.request("GET", "/api/events", ww.token, nil, nil)
	var evs struct {
		Events []struct {
			File, Type, Channel, Schedule, Zone, Error string
			Next                                       []string
		}
	}
	if err := json.Unmarshal([]byte(body), &evs); err != nil || len(evs.Events) != 2 {
		t.Fatalf("events: %v\n%s", err, body)
	}
	bad, std := evs.Events[0], evs.Events[1]
	if bad.File != "broken.json" || bad.Error == "" {
		t.Errorf("invalid event = %+v", bad)
	}
	if std.Channel != "web/ops" || std.Schedule != "0 9 * * 1-5" || std.Zone != "Europe/Vienna" || len(std.Next) != 3 {
		t.Fatalf("periodic event = %+v", std)
	}
	first, err := time.Parse(time.RFC3339, std.Next[0])
	if err != nil || first.Before(time.Now()) || first.In(time.FixedZone("", 0)).Minute() != 0 {
		t.Errorf("next fire %q: %v", std.Next[0], err)
	}
	ww.stop()
}

// TestWebReadyzFollowsEveryAdapter: /readyz is 200 while Slack's socket is connected, and 503
// naming the Slack adapter once it drops, with no token needed and nothing else said.
func TestWebReadyzFollowsEveryAdapter(t *testing.T) {
	ww := newWebWorld(t, "", "")
	s := fakeslack.New(fakeslack.WithBot(slackBot, "mom"))
	t.Cleanup(s.Close)
	ww.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "adapters": {"web": {"type": "web", "listen": "127.0.0.1:0"},
               "acme": {"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q}},
}`, ww.llm.URL(), s.BotToken(), s.AppToken(), s.URL()))
	ww.run()
	s.WaitFor(t, "mom to connect to Socket Mode", s.Connected)
	if resp, body := ww.request("GET", "/readyz", "", nil, nil); resp.StatusCode != 200 || body != "ready\n" {
		t.Errorf("readyz while connected: %d %q", resp.StatusCode, body)
	}
	s.Close()
	eventually(t, "readyz to report Slack", func() bool {
		resp, body := ww.request("GET", "/readyz", "", nil, nil)
		return resp.StatusCode == 503 && body == "not connected: acme\n"
	})
	if resp, body := ww.request("GET", "/healthz", "", nil, nil); resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("healthz: %d %q", resp.StatusCode, body)
	}
	ww.stop()
}

// TestWebFirstRunOpensTheBrowserChat: `mom <new dir>` writes a config with the terminal and
// the web chat, prints a ready-to-click address whose token is kept (privately) in the data
// directory, and prints the token only that once.
func TestWebFirstRunOpensTheBrowserChat(t *testing.T) {
	w := newWorld(t)
	w.dir = filepath.Join(t.TempDir(), "fresh")
	ww := &webWorld{world: w}
	ww.run()
	if !strings.Contains(ww.p.err.String(), "with the terminal and the web chat enabled") || !strings.Contains(ww.p.err.String(), "?token="+ww.token) {
		t.Errorf("first start:\n%s", ww.p.err)
	}
	info, err := os.Stat(filepath.Join(w.dir, "web.token"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("token file: %v %v", err, info)
	}
	if resp, _ := ww.request("GET", "/api/channels", ww.token, nil, nil); resp.StatusCode != 200 {
		t.Errorf("the printed token does not open the chat: %d", resp.StatusCode)
	}
	ww.p.send("hello from the terminal")
	ww.p.waitFor("ANTHROPIC_API_KEY") // no key in the environment: the terminal explains
	if code := ww.p.quit(); code != 0 {
		t.Fatalf("exit %d after the typed message\n%s", code, ww.p.err)
	}

	first := ww.token
	ww.run()
	if strings.Contains(ww.p.err.String(), first) || !strings.Contains(ww.p.err.String(), "(the access token is in "+filepath.Join(w.dir, "web.token")+")") {
		t.Errorf("second start printed the token again or not where it is:\n%s", ww.p.err)
	}
	if ww.token != first {
		t.Errorf("the token changed across restarts")
	}
	ww.stop()
}

// TestWebListenBeyondLoopbackNeedsAToken: `mom check` refuses a web chat open to the network
// without a token from config.
func TestWebListenBeyondLoopbackNeedsAToken(t *testing.T) {
	ww := newWebWorld(t, "", "")
	ww.writeConfig(`{"adapters": {"web": {"type": "web", "listen": "0.0.0.0:0"}}}`)
	res := ww.mom("", "check", ww.dir)
	if res.code == 0 || !strings.Contains(res.stderr, `adapters.web.listen: "0.0.0.0:0" can be reached from other machines; set "token"`) {
		t.Errorf("check: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
}
