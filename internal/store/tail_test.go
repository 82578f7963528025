package store

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// ids lists the messages' ids, for comparing in one line.
func ids(msgs []chat.Message) string {
	var s []string
	for _, m := range msgs {
		s = append(s, m.ID)
	}
	return strings.Join(s, ",")
}

// appendRaw writes bytes to a channel's log behind the store's back, as a crash or an editor
// would leave them.
func appendRaw(t *testing.T, c *ChannelDir, s string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(c.Dir(), "log.jsonl"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
}

func TestTailMessagesCounts(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("web", "general")
	if msgs, err := c.TailMessages(5); msgs != nil || err != nil {
		t.Fatalf("no log: %v, %v", msgs, err)
	}
	os.MkdirAll(c.Dir(), 0o755)
	appendRaw(t, c, "")
	if msgs, err := c.TailMessages(5); msgs != nil || err != nil {
		t.Fatalf("empty log: %v, %v", msgs, err)
	}
	for i := range 3 {
		c.AppendLog(chat.Message{ID: fmt.Sprint(i), Text: "hi"})
	}
	for n, want := range map[int]string{1: "2", 2: "1,2", 3: "0,1,2", 4: "0,1,2", 200: "0,1,2"} {
		msgs, err := c.TailMessages(n)
		if err != nil || ids(msgs) != want {
			t.Errorf("last %d: %q, %v; want %q", n, ids(msgs), err, want)
		}
	}
	if msgs, err := c.TailMessages(0); len(msgs) != 0 || err != nil {
		t.Errorf("last 0: %v, %v", msgs, err)
	}
}

// TestTailMessagesMatchesReadLog checks the backward reader against the forward one on a log
// with everything a real one can hold: messages longer than a read block, multi-byte text
// whose characters straddle block edges, lines that are not messages, and a torn last line.
func TestTailMessagesMatchesReadLog(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := s.ChannelDir("web", "general")
	ts := time.Date(2025, 3, 1, 9, 30, 0, 0, time.UTC)
	for i := range 600 {
		text := fmt.Sprintf("message %d: héllo wörld, 日本語のテキスト 🙂", i)
		switch {
		case i%97 == 0:
			text = strings.Repeat("ünïcödé 🙂 ", 20_000) // ~300 KB, several blocks
		case i%5 == 0:
			text += strings.Repeat("✓", i)
		}
		if _, err := c.AppendLog(chat.Message{ID: fmt.Sprint(i), TS: ts, Text: text,
			Sender: chat.User{ID: "web:ada", Username: "ada"}}); err != nil {
			t.Fatal(err)
		}
		if i == 300 {
			appendRaw(t, c, "{not json}\n\n   \n[1,2]\n")
		}
	}
	s.Close()
	appendRaw(t, c, `{"id":"600","text":"cut off by a cra`)

	// A fresh store sees the torn tail on disk, as mom does after a crash.
	s, err = Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	c, _ = s.ChannelDir("web", "general")
	var all []chat.Message
	if err := c.ReadLog(0, func(m chat.Message, _ LogPos) error { all = append(all, m); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(all) != 600 {
		t.Fatalf("ReadLog saw %d messages, want 600", len(all))
	}
	for _, n := range []int{1, 2, 3, 99, 200, 299, 300, 301, 599, 600, 601, 2000} {
		got, err := c.TailMessages(n)
		if err != nil {
			t.Fatalf("last %d: %v", n, err)
		}
		want := all[max(0, len(all)-n):]
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("last %d: got ids %.80s…, want %.80s…", n, ids(got), ids(want))
		}
	}
	if m, ok, err := c.LastMessage(); !ok || err != nil || m.ID != "599" {
		t.Fatalf("LastMessage %q, %v, %v; want 599", m.ID, ok, err)
	}
	// The torn line is healed by the next append and stays skipped; the new one is last.
	c.AppendLog(chat.Message{ID: "601", Text: "after the crash"})
	if got, _ := c.TailMessages(3); ids(got) != "598,599,601" {
		t.Fatalf("after healing: %s", ids(got))
	}
}

// BenchmarkTailMessages measures reading a page of 200 messages from the end of a
// 100,000-line log (about 22 MB).
func BenchmarkTailMessages(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c, _ := s.ChannelDir("web", "general")
	now := time.Now()
	for i := range 100_000 {
		c.AppendLog(chat.Message{ID: fmt.Sprint(i), TS: now, Sender: chat.User{ID: "web:ada", Username: "ada"},
			Text: "a message of a typical length, about as long as people write in a chat"})
	}
	b.ReportAllocs()
	for b.Loop() {
		msgs, err := c.TailMessages(200)
		if err != nil || len(msgs) != 200 || msgs[199].ID != "99999" {
			b.Fatal(len(msgs), err)
		}
	}
}
