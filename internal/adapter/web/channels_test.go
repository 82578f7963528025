package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestWebChannelsAndEvents: channels made from the page appear in the list and take
// messages; the events list shows each event's next fire times and invalid files' reasons.
func TestWebChannelsAndEvents(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	evDir := filepath.Join(ww.Dir, "workspace", "events")
	os.MkdirAll(evDir, 0o755)
	os.WriteFile(filepath.Join(evDir, "standup.json"), []byte(`{"type": "periodic", "channelId": "web/ops", "text": "standup", "schedule": "0 9 * * 1-5", "timezone": "Europe/Vienna"}`), 0o644)
	os.WriteFile(filepath.Join(evDir, "broken.json"), []byte(`{"type": "sometimes"}`), 0o644)
	ww.run()
	resp, body := ww.Request("POST", "/api/channels", ww.Token(), strings.NewReader(`{"name": "ops"}`), nil)
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %s", resp.StatusCode, body)
	}
	if _, body := ww.Request("GET", "/api/channels", ww.Token(), nil, nil); !strings.Contains(body, `{"id":"general"`) || !strings.Contains(body, `{"id":"ops"`) {
		t.Errorf("channels = %s", body)
	}
	ww.LLM.Enqueue(fakellm.Text("ops here"))
	if resp, body := ww.Post("ops", "ada", "status?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	apptest.WaitForFile(t, filepath.Join(ww.ChannelDir("web", "ops"), "context.jsonl"))

	_, body = ww.Request("GET", "/api/events", ww.Token(), nil, nil)
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
	ww.Stop()
}
