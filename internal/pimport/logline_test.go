package pimport

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

func newConverter(dm bool) *logConverter {
	return &logConverter{oldName: "C123ABC", channel: "C123ABC", dm: dm, ids: make(map[string]int),
		files: map[string]attachment{"1764153840123_log.txt": {size: 30, mime: "text/plain"}}}
}

// TestConvertLines: each shape of line the original wrote becomes the message mom would have
// logged, and what is not a line of either format is refused.
func TestConvertLines(t *testing.T) {
	t.Parallel()
	c := newConverter(false)
	person := `{"date":"2025-11-26T10:44:00.123Z","ts":"1764153840.123456","user":"U123ABC","userName":"mario","displayName":"Mario Zechner","text":"can you check <this> & that?","attachments":[{"original":"log.txt","local":"C123ABC/attachments/1764153840123_log.txt"},{"original":"gone.png","local":"C123ABC/attachments/1764153840123_gone.png"},{"original":"x","local":"D999/attachments/x"}],"isBot":false}`
	m, ok := c.convert([]byte(person))
	want := chat.Message{
		ID: "1764153840.123456", ChannelID: "C123ABC", TS: time.Date(2025, 11, 26, 10, 44, 0, 123456000, time.UTC),
		Sender: chat.User{ID: "U123ABC", Username: "mario", DisplayName: "Mario Zechner"}, Text: "can you check <this> & that?",
	}
	if !ok || m.ID != want.ID || !m.TS.Equal(want.TS) || m.Sender != want.Sender || m.Text != want.Text || m.ChannelID != want.ChannelID || m.IsMention {
		t.Fatalf("person's line:\n got %+v\nwant %+v", m, want)
	}
	if a := m.Attachments; len(a) != 3 ||
		a[0] != (chat.Attachment{Filename: "log.txt", LocalPath: "attachments/1764153840123_log.txt", MimeType: "text/plain", Size: 30}) ||
		a[1].LocalPath != "" || !strings.Contains(a[1].Error, "never arrived") || a[1].Filename != "gone.png" ||
		a[2].LocalPath != "" || !strings.Contains(a[2].Error, "not in this channel's attachments") {
		t.Fatalf("attachments %+v", m.Attachments)
	}

	// mom's own lines: user "bot", the date's time, the ts of its status message shared by
	// the lines of one run, made unique.
	bot := `{"date":"2025-11-26T10:44:09.512Z","ts":"1764153842.000100","user":"bot","text":"Build is green.","attachments":[],"isBot":true}`
	m1, ok1 := c.convert([]byte(bot))
	m2, ok2 := c.convert([]byte(bot))
	if !ok1 || !ok2 || m1.ID != "mom-1764153842.000100" || m2.ID != "mom-1764153842.000100-2" ||
		m1.Sender != (chat.User{ID: "bot", Username: "mom", IsBot: true}) || !m1.TS.Equal(time.Date(2025, 11, 26, 10, 44, 9, 512000000, time.UTC)) {
		t.Fatalf("bot lines %+v %+v", m1, m2)
	}

	// The first versions' millisecond ts; a line without a userName; a line with only a date.
	ms, ok := c.convert([]byte(`{"date":"2025-11-20T09:00:00.000Z","ts":"1763629200000","user":"U9","text":"old","attachments":[],"isBot":false}`))
	if !ok || ms.ID != "1763629200000" || !ms.TS.Equal(time.Date(2025, 11, 20, 9, 0, 0, 0, time.UTC)) || ms.Sender.Username != "U9" {
		t.Fatalf("ms line %+v", ms)
	}
	dated, ok := c.convert([]byte(`{"date":"2025-11-20T09:00:00.000Z","user":"U9","text":"no ts"}`))
	if !ok || dated.ID != "pimom-1763629200000" {
		t.Fatalf("dated line %+v", dated)
	}

	// A line in mom's format is kept.
	own, _ := json.Marshal(chat.Message{ID: "x1", TS: time.Now(), Sender: chat.User{ID: "U1", Username: "ada"}, Text: "new"})
	if m, ok := c.convert(own); !ok || m.Text != "new" {
		t.Fatalf("mom's line %+v", m)
	}

	for _, bad := range []string{`not json`, `[1,2]`, `{"date":"x","ts":"y","user":"U1","text":"no time"}`, `{"text":"nobody"}`, `{"ts":"1764153842.00x1","user":"U1"}`} {
		if m, ok := c.convert([]byte(bad)); ok {
			t.Errorf("%s converted to %+v", bad, m)
		}
	}
}

// TestConvertDM: in a Slack DM every person's message addresses mom, as mom logs them.
func TestConvertDM(t *testing.T) {
	t.Parallel()
	c := newConverter(true)
	m, _ := c.convert([]byte(`{"date":"2025-11-26T10:44:00.000Z","ts":"1764153840.000100","user":"U1","userName":"ada","text":"hi","attachments":[],"isBot":false}`))
	b, _ := c.convert([]byte(`{"date":"2025-11-26T10:44:01.000Z","ts":"1764153841.000100","user":"bot","text":"hello","attachments":[],"isBot":true}`))
	if !m.IsDM || !m.IsMention || !b.IsDM || b.IsMention {
		t.Fatalf("person %+v, bot %+v", m, b)
	}
}

// FuzzConvertLine: no line makes the converter panic, and what it converts is a message mom
// can log and read back.
func FuzzConvertLine(f *testing.F) {
	f.Add([]byte(`{"date":"2025-11-26T10:44:00.123Z","ts":"1764153840.123456","user":"U1","userName":"mario","text":"x","attachments":[{"original":"a","local":"C123ABC/attachments/a"}],"isBot":false}`))
	f.Add([]byte(`{"date":"2025-11-26T10:44:09.512Z","ts":1764153842000,"user":"bot","text":"y","isBot":true}`))
	f.Fuzz(func(t *testing.T, line []byte) {
		m, ok := newConverter(false).convert(line)
		if !ok {
			return
		}
		if m.ID == "" || m.Sender.ID == "" || m.TS.IsZero() {
			t.Fatalf("converted to a message without id, sender or time: %+v", m)
		}
		b, err := json.Marshal(m)
		if err != nil {
			t.Fatal(err)
		}
		var back chat.Message
		if err := json.Unmarshal(b, &back); err != nil || back.ID != m.ID {
			t.Fatalf("%s does not read back: %v", b, err)
		}
	})
}
