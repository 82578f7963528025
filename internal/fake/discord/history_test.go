package fakediscord

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

// history asks Get Channel Messages and returns the status, the ids of the messages (as
// Discord orders them), the message objects, and the error body of a refusal.
func history(t *testing.T, s *Server, channel, query string) (int, []string, []map[string]any, map[string]any) {
	t.Helper()
	req, _ := http.NewRequest("GET", s.URL()+"/v10/channels/"+channel+"/messages"+query, nil)
	req.Header.Set("Authorization", "Bot "+s.Token())
	req.Header.Set("User-Agent", "DiscordBot (https://example.com, 1)")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		var e map[string]any
		json.Unmarshal(data, &e)
		return resp.StatusCode, nil, nil, e
	}
	var msgs []map[string]any
	if err := json.Unmarshal(data, &msgs); err != nil {
		t.Fatalf("Get Channel Messages answered %s: %v", data, err)
	}
	var ids []string
	for _, m := range msgs {
		ids = append(ids, m["id"].(string))
	}
	return resp.StatusCode, ids, msgs, nil
}

func TestGetChannelMessagesPagesNewestFirst(t *testing.T) {
	s := newTestServer(t)
	var m [5]string
	for i := range m {
		m[i] = s.Say(general, ada, "message "+itoa(i+1), Silently())
	}
	for _, tt := range []struct {
		query string
		want  []string
	}{
		{"", []string{m[4], m[3], m[2], m[1], m[0]}},
		{"?limit=2", []string{m[4], m[3]}},
		{"?after=" + m[1] + "&limit=2", []string{m[3], m[2]}},
		{"?after=" + m[1], []string{m[4], m[3], m[2]}},
		{"?after=" + m[4], nil},
		{"?before=" + m[3] + "&limit=2", []string{m[2], m[1]}},
		{"?before=" + m[0], nil},
		{"?before=1", nil},
		{"?after=1&limit=1", []string{m[0]}},
		{"?around=" + m[2] + "&limit=3", []string{m[3], m[2], m[1]}},
		{"?around=" + m[0] + "&limit=3", []string{m[2], m[1], m[0]}},
	} {
		code, ids, _, _ := history(t, s, general, tt.query)
		if code != 200 || strings.Join(ids, ",") != strings.Join(tt.want, ",") {
			t.Errorf("messages%s = %d %v; want %v", tt.query, code, ids, tt.want)
		}
	}
	if v := s.Violations(); len(v) > 0 {
		t.Errorf("violations: %v", v)
	}
}

// TestGetChannelMessagesObjects: history carries the message as REST does (no guild_id or
// member, which only MESSAGE_CREATE adds), attachments included, and content only with the
// MESSAGE_CONTENT intent enabled.
func TestGetChannelMessagesObjects(t *testing.T) {
	s := newTestServer(t)
	s.Say(general, ada, "with a file", Silently(), WithFile(File{Name: "a.txt", Content: []byte("data")}))
	_, _, msgs, _ := history(t, s, general, "")
	if len(msgs) != 1 {
		t.Fatalf("%d messages", len(msgs))
	}
	m := msgs[0]
	atts, _ := m["attachments"].([]any)
	if m["content"] != "with a file" || m["channel_id"] != general || len(atts) != 1 || m["timestamp"] == "" ||
		m["author"].(map[string]any)["id"] != ada {
		t.Errorf("message = %v", m)
	}
	if _, ok := m["guild_id"]; ok {
		t.Errorf("message has guild_id; Discord's REST message object has none")
	}
	if _, ok := m["member"]; ok {
		t.Errorf("message has member; Discord's REST message object has none")
	}

	noContent := newTestServer(t, WithPrivilegedIntents(IntentGuildMembers))
	noContent.Say(general, ada, "private words", Silently())
	if _, _, msgs, _ := history(t, noContent, general, ""); len(msgs) != 1 || msgs[0]["content"] != "" {
		t.Errorf("without MESSAGE_CONTENT, history = %v; want the content withheld", msgs)
	}
}

func TestGetChannelMessagesRefusals(t *testing.T) {
	s := newTestServer(t)
	id := s.Say(general, ada, "hi", Silently())
	for _, tt := range []struct {
		query, field, code string
	}{
		{"?limit=0", "limit", "NUMBER_TYPE_MIN"},
		{"?limit=101", "limit", "NUMBER_TYPE_MAX"},
		{"?limit=many", "limit", "NUMBER_TYPE_COERCE"},
		{"?after=latest", "after", "NUMBER_TYPE_COERCE"},
		{"?after=" + id + "&before=" + id, "after", "BASE_TYPE_CHOICES"},
	} {
		code, _, _, body := history(t, s, general, tt.query)
		errs, _ := body["errors"].(map[string]any)
		field, _ := errs[tt.field].(map[string]any)
		list, _ := field["_errors"].([]any)
		if code != 400 || body["code"] != 50035.0 || len(list) != 1 || list[0].(map[string]any)["code"] != tt.code {
			t.Errorf("messages%s = %d %v; want 400 Invalid Form Body with %s on %s", tt.query, code, body, tt.code, tt.field)
		}
	}
	if v := s.Violations(); len(v) != 5 {
		t.Errorf("violations = %v; want the five refused queries", v)
	}
	if code, _, _, body := history(t, s, "1300000000000000999", ""); code != 404 || body["code"] != 10003.0 || body["message"] != "Unknown Channel" {
		t.Errorf("unknown channel = %d %v", code, body)
	}
	s.HideChannel(general)
	if code, _, _, body := history(t, s, general, ""); code != 403 || body["code"] != 50001.0 || body["message"] != "Missing Access" {
		t.Errorf("hidden channel = %d %v", code, body)
	}
}

// TestSilentlyIsNotDispatched: a message said Silently is history only; the next live one is
// the first MESSAGE_CREATE the bot hears.
func TestSilentlyIsNotDispatched(t *testing.T) {
	s := newTestServer(t)
	c := joined(t, s, allIntents)
	s.Say(general, ada, "while you were away", Silently())
	s.Say(general, ada, "are you back?")
	var d struct {
		Content string `json:"content"`
	}
	if m := c.dispatch("MESSAGE_CREATE"); json.Unmarshal(m.D, &d) != nil || d.Content != "are you back?" {
		t.Errorf("first MESSAGE_CREATE = %s; want the live message only", m.D)
	}
	if got := s.Messages(general); len(got) != 2 || got[0].Content != "while you were away" {
		t.Errorf("channel = %+v; want the silent message kept", got)
	}
}
