package store

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
)

func openStore(t testing.TB) *Store {
	t.Helper()
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestOpenCreatesWorkspace(t *testing.T) {
	s := openStore(t)
	for _, d := range []string{"channels", "skills", "events"} {
		if st, err := os.Stat(filepath.Join(s.Workspace(), d)); err != nil || !st.IsDir() {
			t.Fatalf("workspace/%s: %v", d, err)
		}
	}
	if s.Workspace() != filepath.Join(s.DataDir(), "workspace") || !filepath.IsAbs(s.DataDir()) {
		t.Fatalf("data %s workspace %s", s.DataDir(), s.Workspace())
	}
	if m, err := s.Memory(); m != "" || err != nil {
		t.Fatalf("memory of an empty workspace: %q %v", m, err)
	}
}

func TestHostileIDsStayInside(t *testing.T) {
	s := openStore(t)
	want := map[string]bool{}
	for _, adapter := range []string{"slack-acme", "../evil", "."} {
		for _, id := range append(hostileIDs, plainIDs...) {
			c, err := s.ChannelDir(adapter, id)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := c.AppendLog(chat.Message{ID: "1", Text: "x"}); err != nil {
				t.Fatalf("%.40q: %v", id, err)
			}
			adir, _ := PathComponent(adapter)
			rel, err := filepath.Rel(filepath.Join(s.Workspace(), "channels", adir), c.Dir())
			if err != nil || rel != filepath.Base(c.Dir()) || strings.HasPrefix(rel, ".") {
				t.Fatalf("channel %.40q of %q lives in %s", id, adapter, c.Dir())
			}
			if _, err := os.Stat(filepath.Join(c.Dir(), "log.jsonl")); err != nil {
				t.Fatal(err)
			}
			if len(id)*3 <= MaxComponent {
				want[adapter+"\x00"+id] = true
			}
		}
	}
	refs, err := s.Channels()
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range refs {
		got[r.Adapter+"\x00"+r.ID] = true
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("Channels() listed %d channels, want %d", len(got), len(want))
	}
	// Nothing escaped: the workspace holds only what Open and the channels made.
	ents, _ := os.ReadDir(s.Workspace())
	if len(ents) != 3 {
		t.Fatalf("workspace holds %d entries", len(ents))
	}
	if ents, _ := os.ReadDir(s.DataDir()); len(ents) != 1 {
		t.Fatalf("data dir holds %d entries", len(ents))
	}
}

func TestChannelIsSharedAndLazy(t *testing.T) {
	s := openStore(t)
	var wg sync.WaitGroup
	got := make([]*ChannelDir, 32)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := s.ChannelDir("web", "general")
			if err != nil {
				t.Error(err)
			}
			got[i] = c
		}()
	}
	wg.Wait()
	for _, c := range got {
		if c != got[0] {
			t.Fatal("two *ChannelDir for one channel")
		}
	}
	c := got[0]
	if c.Key() != "web/general" || c.Adapter() != "web" || c.ID() != "general" {
		t.Fatalf("key %s", c.Key())
	}
	if _, err := os.Stat(c.Dir()); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Channel() created %s", c.Dir())
	}
	if size, err := c.LogSize(); size != 0 || err != nil {
		t.Fatalf("LogSize of a new channel: %d %v", size, err)
	}
	if err := c.ReadLog(0, func(chat.Message, LogPos) error { t.Error("called"); return nil }); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelDir("web", ""); err == nil {
		t.Fatal("empty channel id accepted")
	}
	if _, err := s.ChannelDir("", "x"); err == nil {
		t.Fatal("empty adapter accepted")
	}
}

func TestLogRoundTrip(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("slack-acme", "C123")
	msgs := []chat.Message{
		{ID: "1734567890.123456", ChannelID: "C123", TS: time.Date(2024, 12, 20, 10, 0, 0, 0, time.UTC),
			Sender: chat.User{ID: "U123", Username: "mario", DisplayName: "Mario Z"}, Text: "<@U789> what's the weather?", IsMention: true},
		{ID: "1734567890.234567", TS: time.Date(2024, 12, 20, 10, 0, 5, 0, time.UTC),
			Sender: chat.User{ID: "bot", Username: "mom", IsBot: true}, Text: "The weather is sunny!"},
		{ID: "3", TS: time.Date(2024, 12, 20, 10, 0, 6, 0, time.UTC), Sender: chat.User{ID: "U1", Username: "a"}, Text: "file",
			Attachments: []chat.Attachment{{Filename: "a.txt", LocalPath: "attachments/1_a.txt", MimeType: "text/plain", Size: 3}},
			Metadata:    map[string]any{"thread": "x"}},
	}
	var pos []LogPos
	for _, m := range msgs {
		p, err := c.AppendLog(m)
		if err != nil {
			t.Fatal(err)
		}
		pos = append(pos, p)
	}
	data, _ := os.ReadFile(filepath.Join(c.Dir(), "log.jsonl"))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	wantFirst := `{"id":"1734567890.123456","channelId":"C123","ts":"2024-12-20T10:00:00Z","sender":{"id":"U123","username":"mario","displayName":"Mario Z","isBot":false},"text":"<@U789> what's the weather?","attachments":[],"isMention":true}`
	if lines[0] != wantFirst {
		t.Fatalf("line 1:\n%s\nwant\n%s", lines[0], wantFirst)
	}
	for i, l := range lines {
		var m map[string]any
		json.Unmarshal([]byte(l), &m)
		if _, ok := m["attachments"].([]any); !ok {
			t.Fatalf("line %d has no attachments array: %s", i+1, l)
		}
		if _, err := time.Parse(time.RFC3339, m["ts"].(string)); err != nil {
			t.Fatalf("line %d: ts %v", i+1, m["ts"])
		}
		if string(data[pos[i].Start:pos[i].End]) != l+"\n" {
			t.Fatalf("LogPos %v does not frame line %d", pos[i], i+1)
		}
	}
	if size, _ := c.LogSize(); size != int64(len(data)) || pos[2].End != size {
		t.Fatalf("LogSize %d, file %d", size, len(data))
	}

	var got []chat.Message
	if err := c.ReadLog(0, func(m chat.Message, p LogPos) error { got = append(got, m); return nil }); err != nil {
		t.Fatal(err)
	}
	msgs[1].Attachments = []chat.Attachment{} // read back as present and empty
	msgs[0].Attachments = []chat.Attachment{}
	if !reflect.DeepEqual(got, msgs) {
		t.Fatalf("read back:\n%+v\nwant\n%+v", got, msgs)
	}
	got = nil
	c.ReadLog(pos[0].End, func(m chat.Message, p LogPos) error {
		got = append(got, m)
		if p != pos[len(got)] {
			t.Errorf("pos %v want %v", p, pos[len(got)])
		}
		return nil
	})
	if len(got) != 2 || got[0].ID != msgs[1].ID {
		t.Fatalf("from %d: %+v", pos[0].End, got)
	}
	// A bad line in the middle and a torn tail are skipped.
	f, _ := os.OpenFile(filepath.Join(c.Dir(), "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString("{not json}\n")
	f.Close()
	c.AppendLog(chat.Message{ID: "4"})
	f, _ = os.OpenFile(filepath.Join(c.Dir(), "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"5","te`)
	f.Close()
	var ids []string
	c.ReadLog(0, func(m chat.Message, p LogPos) error { ids = append(ids, m.ID); return nil })
	if strings.Join(ids, ",") != "1734567890.123456,1734567890.234567,3,4" {
		t.Fatalf("ids %v", ids)
	}
	stop := errors.New("stop")
	if err := c.ReadLog(0, func(chat.Message, LogPos) error { return stop }); err != stop {
		t.Fatalf("fn's error: %v", err)
	}
}

func TestSessionThroughChannel(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("cli", "local")
	sess, err := c.Session()
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := c.Session(); again != sess {
		t.Fatal("Session() opened the file twice")
	}
	if sess.Header().Cwd != c.Dir() || sess.Path() != filepath.Join(c.Dir(), "context.jsonl") {
		t.Fatalf("header %+v", sess.Header())
	}
	for _, d := range []string{"attachments", "scratch", "skills"} {
		if _, err := os.Stat(filepath.Join(c.Dir(), d)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := sess.AppendMessage(llm.NewUserText("hi", time.Now())); err != nil {
		t.Fatal(err)
	}
	c.AppendLog(chat.Message{ID: "1"})

	if err := s.Release("cli", "local"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.AppendLog(chat.Message{ID: "2"}); err == nil {
		t.Fatal("a released channel still logs")
	}
	if _, err := c.Session(); err == nil {
		t.Fatal("a released channel still opens its session")
	}
	if _, err := sess.AppendMessage(llm.NewUserText("x", time.Now())); err == nil {
		t.Fatal("the released session still appends")
	}
	c2, _ := s.ChannelDir("cli", "local")
	if c2 == c {
		t.Fatal("Release did not drop the channel")
	}
	sess2, err := c2.Session()
	if err != nil || sess2.Len() != 1 || sess2.ID() != sess.ID() {
		t.Fatalf("reopened session: %v", err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.ChannelDir("cli", "local"); err == nil {
		t.Fatal("a closed store hands out channels")
	}
	if _, err := c2.AppendLog(chat.Message{}); err == nil {
		t.Fatal("a channel of a closed store still logs")
	}
}

func TestAttachments(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("slack-acme", "C1")
	ts := time.UnixMilli(1773568805000)
	save := func(name, body string, max int64) (chat.Attachment, error) {
		return c.SaveAttachment(name, ts, strings.NewReader(body), max)
	}
	var paths []string
	for range 3 {
		a, err := save("report.pdf", "%PDF-1.4", 0)
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, a.LocalPath)
		if a.Filename != "report.pdf" || a.MimeType != "application/pdf" || a.Size != 8 {
			t.Fatalf("%+v", a)
		}
	}
	if strings.Join(paths, " ") != "attachments/1773568805000_report.pdf attachments/1773568805000_report-2.pdf attachments/1773568805000_report-3.pdf" {
		t.Fatalf("names %v", paths)
	}
	for _, tc := range [][2]string{
		{"../../x", "1773568805000__.._x"},
		{".bashrc", "1773568805000_bashrc"},
		{"", "1773568805000_file"},
		{"..", "1773568805000_file-2"}, // "" took "file"
		{"a b/c\x00d.txt", "1773568805000_a_b_c_d.txt"},
		{"日本語.png", "1773568805000____.png"},
		{strings.Repeat("n", 500) + ".jpeg", "1773568805000_" + strings.Repeat("n", maxNameLen-5) + ".jpeg"},
	} {
		name, want := tc[0], tc[1]
		a, err := save(name, "data", 0)
		if err != nil {
			t.Fatal(err)
		}
		if a.LocalPath != "attachments/"+want {
			t.Errorf("%.30q saved as %s, want %s", name, a.LocalPath, want)
		}
		if b, _ := os.ReadFile(filepath.Join(c.Dir(), a.LocalPath)); string(b) != "data" {
			t.Errorf("%q holds %q", a.LocalPath, b)
		}
	}
	// Sniffed when the extension says nothing.
	png := "\x89PNG\r\n\x1a\n" + strings.Repeat("\x00", 20)
	if a, _ := save("image", png, 0); a.MimeType != "image/png" {
		t.Fatalf("sniffed %q", a.MimeType)
	}
	if a, _ := save("notes.txt", "hello", 0); a.MimeType != "text/plain" {
		t.Fatalf("txt is %q", a.MimeType)
	}

	// Over the limit: an error naming the file and the limit, nothing kept.
	before, _ := os.ReadDir(filepath.Join(c.Dir(), "attachments"))
	_, err := save("huge.bin", strings.Repeat("x", 1001), 1000)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "huge.bin") || !strings.Contains(err.Error(), "1000 bytes") {
		t.Fatalf("over the limit: %v", err)
	}
	if a, err := save("exact.bin", strings.Repeat("x", 1000), 1000); err != nil || a.Size != 1000 {
		t.Fatalf("at the limit: %+v %v", a, err)
	}
	after, _ := os.ReadDir(filepath.Join(c.Dir(), "attachments"))
	if len(after) != len(before)+1 {
		t.Fatalf("%d files before, %d after", len(before), len(after))
	}
	for _, e := range after {
		if strings.HasPrefix(e.Name(), ".") {
			t.Fatalf("temporary file %s left behind", e.Name())
		}
	}
	// A reader that fails leaves nothing behind either.
	_, err = c.SaveAttachment("broken.bin", ts, io.MultiReader(strings.NewReader("abc"), errReader{}), 0)
	if err == nil {
		t.Fatal("a failed download was saved")
	}
	if again, _ := os.ReadDir(filepath.Join(c.Dir(), "attachments")); len(again) != len(after) {
		t.Fatal("a failed download left a file")
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("connection reset") }

func TestMemoryIsCapped(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("tg", "-1001234567890")
	if m, err := c.Memory(); m != "" || err != nil {
		t.Fatalf("%q %v", m, err)
	}
	os.MkdirAll(c.Dir(), 0o755)
	os.WriteFile(filepath.Join(c.Dir(), "MEMORY.md"), []byte("- likes tea\n"), 0o644)
	if m, _ := c.Memory(); m != "- likes tea\n" {
		t.Fatalf("%q", m)
	}
	big := strings.Repeat("ü", 50_000) // 100,000 bytes, two per character
	os.WriteFile(filepath.Join(s.Workspace(), "MEMORY.md"), []byte("x"+big), 0o644)
	m, err := s.Memory()
	if err != nil {
		t.Fatal(err)
	}
	body, note, ok := strings.Cut(m, "\n\n[MEMORY.md is 100001 bytes; only the first 65535 are shown.")
	if !ok || len(body) != 65535 || !utf8.ValidString(m) || note == "" {
		t.Fatalf("capped memory: %d bytes, valid %v, tail %q", len(body), utf8.ValidString(m), m[len(m)-120:])
	}
}

func BenchmarkAppendLog(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	c, _ := s.ChannelDir("slack-acme", "C0A34FL8PMH")
	m := chat.Message{ID: "1734567890.123456", ChannelID: "C0A34FL8PMH", TS: time.Now(),
		Sender: chat.User{ID: "U123", Username: "mario", DisplayName: "Mario Zechner"},
		Text:   "can you check the build? it failed again on the release branch", IsMention: true}
	line, _ := json.Marshal(m)
	b.SetBytes(int64(len(line) + 1))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.AppendLog(m); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkAppendLogParallel(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	var n int64
	var mu sync.Mutex
	b.ReportAllocs()
	b.RunParallel(func(pb *testing.PB) {
		mu.Lock()
		n++
		c, _ := s.ChannelDir("slack-acme", fmt.Sprint("C", n))
		mu.Unlock()
		m := chat.Message{ID: "1", TS: time.Now(), Sender: chat.User{ID: "U1", Username: "mario"}, Text: "hello"}
		for pb.Next() {
			if _, err := c.AppendLog(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

var _ = bytes.Equal

func TestLastMessage(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("slack-acme", "C9")
	if _, ok, err := c.LastMessage(); ok || err != nil {
		t.Fatalf("empty log: ok %v, err %v", ok, err)
	}
	big := strings.Repeat("x", 1000)
	for i := range 200 { // well past the tail window
		if _, err := c.AppendLog(chat.Message{ID: fmt.Sprint(i), Text: big}); err != nil {
			t.Fatal(err)
		}
	}
	m, ok, err := c.LastMessage()
	if err != nil || !ok || m.ID != "199" {
		t.Fatalf("last = %q, ok %v, err %v; want 199", m.ID, ok, err)
	}
	// A torn last line (a crash mid-append) is not a message.
	f, _ := os.OpenFile(filepath.Join(c.Dir(), "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"id":"200","te`)
	f.Close()
	if m, _, _ := c.LastMessage(); m.ID != "199" {
		t.Errorf("with a torn tail: last = %q, want 199", m.ID)
	}
}

// TestCloseSession: a closed session is let go of and read again, whole, by the next Session.
func TestCloseSession(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("cli", "local")
	if err := c.CloseSession(); err != nil {
		t.Fatalf("closing a session never opened: %v", err)
	}
	sess, err := c.Session()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sess.AppendMessage(llm.NewUserText("remember me", time.Now())); err != nil {
		t.Fatal(err)
	}
	if err := c.CloseSession(); err != nil {
		t.Fatal(err)
	}
	again, err := c.Session()
	if err != nil {
		t.Fatal(err)
	}
	if again == sess || again.Len() != 1 || again.ID() != sess.ID() {
		t.Errorf("after CloseSession, Session gave the same session (%v) or lost what it held (%d entries)", again == sess, again.Len())
	}
	if _, err := again.AppendMessage(llm.NewUserText("and me", time.Now())); err != nil {
		t.Errorf("the reopened session does not append: %v", err)
	}
}
