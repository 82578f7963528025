package events

import (
	"strings"
	"testing"
	"time"
)

var twoAdapters = []string{"slack-acme", "terminal"}

func TestParse(t *testing.T) {
	ev, err := Parse("daily.json", []byte(`{"type":"periodic","channelId":"slack-acme/C1","text":"Check inbox",
		"schedule":"0 9 * * 1-5","timezone":"Europe/Vienna"}`), twoAdapters)
	if err != nil {
		t.Fatal(err)
	}
	if ev.Adapter != "slack-acme" || ev.Channel != "C1" || ev.Trigger() != "[EVENT:daily.json:periodic:0 9 * * 1-5] Check inbox" {
		t.Errorf("event = %+v, trigger %q", ev, ev.Trigger())
	}
	from := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC) // a Friday
	if got := ev.Next(from); !got.Equal(time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)) {
		t.Errorf("next = %v, want Monday 09:00 Vienna", got)
	}

	ev, err = Parse("hook.json", []byte(`{"type":"immediate","channelId":"C9","text":"New ticket"}`), []string{"slack-acme"})
	if err != nil || ev.ChannelID() != "slack-acme/C9" || ev.Trigger() != "[EVENT:hook.json:immediate] New ticket" {
		t.Errorf("bare id with one adapter: %+v, %v", ev, err)
	}
	ev, err = Parse("r.json", []byte(`{"type":"one-shot","channelId":"terminal/local","text":"Dentist","at":"2025-12-15T09:00:00+01:00"}`), twoAdapters)
	if err != nil || ev.Trigger() != "[EVENT:r.json:one-shot:2025-12-15T09:00:00+01:00] Dentist" || !ev.Next(time.Now()).IsZero() {
		t.Errorf("one-shot: %+v, %v", ev, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"type":"immediate","channelId":"slack-acme/C1"`, "not a valid event file"},
		{`{"type":"immediate","channelId":"slack-acme/C1","text":"x","shedule":"0 9 * * *"}`, `unknown field "shedule"`},
		{`{"channelId":"slack-acme/C1"}`, `missing "type", "text"`},
		{`{"type":"weekly","channelId":"slack-acme/C1","text":"x"}`, `"type": "weekly" is not one of immediate, one-shot, periodic`},
		{`{"type":"immediate","channelId":"C1","text":"x"}`, `"channelId": "C1" needs its adapter, like "slack-acme/C1"`},
		{`{"type":"immediate","channelId":"discord/C1","text":"x"}`, `no adapter is called "discord"`},
		{`{"type":"immediate","channelId":"slack-acme/..","text":"x"}`, `"channelId": ".." is not a channel id`},
		{`{"type":"one-shot","channelId":"slack-acme/C1","text":"x"}`, `a one-shot event needs "at"`},
		{`{"type":"one-shot","channelId":"slack-acme/C1","text":"x","at":"2025-12-15 09:00"}`, `"at": "2025-12-15 09:00" is not a time with a UTC offset`},
		{`{"type":"periodic","channelId":"slack-acme/C1","text":"x","schedule":"0 9 * * *"}`, `needs "schedule"`},
		{`{"type":"periodic","channelId":"slack-acme/C1","text":"x","schedule":"0 9 * * *","timezone":"Mars/Olympus"}`, `"timezone": "Mars/Olympus" is not an IANA time zone`},
		{`{"type":"periodic","channelId":"slack-acme/C1","text":"x","schedule":"0 25 * * *","timezone":"UTC"}`, `"schedule": cron "0 25 * * *": hour`},
	} {
		_, err := Parse("e.json", []byte(tt.in), twoAdapters)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Parse(%s):\n got %v\nwant …%s…", tt.in, err, tt.want)
		}
	}
}
