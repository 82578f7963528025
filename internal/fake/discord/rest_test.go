package fakediscord

import (
	"bytes"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

type restClient struct {
	t     *testing.T
	s     *Server
	token string
}

func (rc restClient) do(method, path, ctype string, body []byte) (int, http.Header, map[string]any) {
	rc.t.Helper()
	req, _ := http.NewRequest(method, rc.s.URL()+"/v10"+path, bytes.NewReader(body))
	if rc.token != "" {
		req.Header.Set("Authorization", "Bot "+rc.token)
	}
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	if ctype != "" {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		rc.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var out map[string]any
	json.Unmarshal(data, &out)
	return resp.StatusCode, resp.Header, out
}

func (rc restClient) json(method, path string, v any) (int, map[string]any) {
	rc.t.Helper()
	var body []byte
	if v != nil {
		body, _ = json.Marshal(v)
	}
	code, _, out := rc.do(method, path, "application/json", body)
	return code, out
}

func TestRESTMessagesThreadsAndUploads(t *testing.T) {
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	if code, me := rc.json("GET", "/users/@me", nil); code != 200 || me["id"] != s.BotID() || me["bot"] != true {
		t.Fatalf("GET /users/@me = %d %v", code, me)
	}
	if code, gb := rc.json("GET", "/gateway/bot", nil); code != 200 || gb["url"] != s.GatewayURL() {
		t.Fatalf("GET /gateway/bot = %d %v", code, gb)
	}
	code, msg := rc.json("POST", "/channels/"+general+"/messages", map[string]any{"content": "Thinking…"})
	if code != 200 || msg["id"] == "" || msg["author"].(map[string]any)["id"] != s.BotID() {
		t.Fatalf("create = %d %v", code, msg)
	}
	id := msg["id"].(string)
	if code, _ := rc.json("PATCH", "/channels/"+general+"/messages/"+id, map[string]any{"content": "The answer"}); code != 200 {
		t.Fatalf("edit = %d", code)
	}
	code, th := rc.json("POST", "/channels/"+general+"/messages/"+id+"/threads", map[string]any{"name": "details"})
	if code != 201 || th["id"] != id || th["parent_id"] != general || th["type"] != float64(KindThread) {
		t.Fatalf("thread = %d %v", code, th)
	}
	if code, _ := rc.json("POST", "/channels/"+id+"/messages", map[string]any{"content": "a detail"}); code != 200 {
		t.Fatalf("post in thread = %d", code)
	}

	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	pj, _ := mw.CreateFormField("payload_json")
	pj.Write([]byte(`{"content":"here","message_reference":{"message_id":"` + id + `"}}`))
	fw, _ := mw.CreateFormFile("files[0]", "report.txt")
	fw.Write([]byte("all good"))
	mw.Close()
	if code, _, out := rc.do("POST", "/channels/"+general+"/messages", mw.FormDataContentType(), body.Bytes()); code != 200 {
		t.Fatalf("upload = %d %v", code, out)
	}
	if code, _ := rc.json("POST", "/channels/"+general+"/typing", nil); code != 204 {
		t.Errorf("typing = %d", code)
	}

	msgs := s.Messages(general)
	if len(msgs) != 2 || msgs[0].Content != "The answer" || msgs[0].Edits != 1 || msgs[0].Thread != id ||
		msgs[1].Reference != id || len(msgs[1].Files) != 1 {
		t.Errorf("channel = %+v", msgs)
	}
	if ms := s.Messages(id); len(ms) != 1 || ms[0].Content != "a detail" {
		t.Errorf("thread = %+v", ms)
	}
	if ups := s.Uploads(); len(ups) != 1 || ups[0].Filename != "report.txt" || string(ups[0].Content) != "all good" || ups[0].Text != "here" {
		t.Errorf("uploads = %+v", ups)
	}
	if s.Typing(general) != 1 {
		t.Errorf("typing recorded %d times", s.Typing(general))
	}
	if code, _ := rc.json("DELETE", "/channels/"+general+"/messages/"+msgs[1].ID, nil); code != 204 {
		t.Errorf("delete = %d", code)
	}
	if len(s.Messages(general)) != 1 {
		t.Errorf("the deleted message is still shown")
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

func TestRESTErrors(t *testing.T) {
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	theirs := s.Say(general, ada, "mine")
	for _, tt := range []struct {
		name         string
		rc           restClient
		method, path string
		body         any
		status, code int
		violate      string
	}{
		{"no token", restClient{t: t, s: s}, "GET", "/users/@me", nil, 401, 0, "without the bot token"},
		{"too long", rc, "POST", "/channels/" + general + "/messages", map[string]any{"content": strings.Repeat("x", 2001)}, 400, 50035, "at most 2,000"},
		{"empty", rc, "POST", "/channels/" + general + "/messages", map[string]any{"content": " "}, 400, 50006, "nothing to send"},
		{"unknown channel", rc, "POST", "/channels/999/messages", map[string]any{"content": "x"}, 404, 10003, ""},
		{"edit someone else's", rc, "PATCH", "/channels/" + general + "/messages/" + theirs, map[string]any{"content": "x"}, 403, 50005, "did not write"},
		{"thread in a DM", rc, "POST", "/channels/" + adaDM + "/messages/" + theirs + "/threads", map[string]any{"name": "x"}, 400, 50024, "not a guild text channel"},
		{"unknown route", rc, "GET", "/guilds/1/bans", nil, 404, 0, "not an endpoint"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			before := len(s.Violations())
			code, out := tt.rc.json(tt.method, tt.path, tt.body)
			if code != tt.status || out["code"] != float64(tt.code) {
				t.Errorf("%s %s = %d %v; want %d code %d", tt.method, tt.path, code, out, tt.status, tt.code)
			}
			v := s.Violations()[before:]
			if tt.violate != "" && (len(v) == 0 || !strings.Contains(strings.Join(v, "\n"), tt.violate)) {
				t.Errorf("violations %q lack %q", v, tt.violate)
			}
		})
	}
}

func TestRESTRateLimit(t *testing.T) {
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	s.RateLimit("POST /channels/{id}/messages", 1, 300*time.Millisecond)
	body, _ := json.Marshal(map[string]any{"content": "hi"})
	code, h, out := rc.do("POST", "/channels/"+general+"/messages", "application/json", body)
	if code != 429 || h.Get("Retry-After") != "1" || h.Get("X-RateLimit-Remaining") != "0" || h.Get("X-RateLimit-Bucket") == "" ||
		out["retry_after"] != 0.3 {
		t.Fatalf("got %d %v %v; want a 429 with retry_after 0.3", code, h, out)
	}
	if code, _, _ := rc.do("POST", "/channels/"+general+"/messages", "application/json", body); code != 200 {
		t.Errorf("the limit outlasted its count: %d", code)
	}
	if v := strings.Join(s.Violations(), "\n"); !strings.Contains(v, "before the end of the 429's retry_after") {
		t.Errorf("an immediate retry was not recorded: %q", v)
	}
}

func TestCDNServesAttachments(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents)
	s.Say(general, ada, "see file", WithFile(File{Name: "notes.txt", ContentType: "text/plain", Content: []byte("hello")}))
	var md struct {
		Attachments []struct {
			URL  string `json:"url"`
			Size int    `json:"size"`
		}
	}
	json.Unmarshal(c.dispatch("MESSAGE_CREATE").D, &md)
	if len(md.Attachments) != 1 || md.Attachments[0].Size != 5 || !strings.Contains(md.Attachments[0].URL, "?ex=") {
		t.Fatalf("attachments = %+v", md.Attachments)
	}
	resp, err := http.Get(md.Attachments[0].URL)
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(data) != "hello" || len(s.Downloads()) != 1 {
		t.Errorf("download = %d %q", resp.StatusCode, data)
	}
	req, _ := http.NewRequest("GET", md.Attachments[0].URL, nil)
	req.Header.Set("Authorization", "Bot "+s.Token())
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if v := strings.Join(s.Violations(), "\n"); !strings.Contains(v, "sent to the CDN") {
		t.Errorf("the token sent to the CDN was not recorded: %q", v)
	}
}
