package store

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// The original mom's log lines, as pimom.md §1.7 gives them.
const (
	piMomUserLine = `{"date":"2025-11-26T10:44:00.000Z","ts":"1764153840.123456","user":"U123ABC","userName":"mario","displayName":"Mario Zechner","text":"can you check the build?","attachments":[{"original":"log.txt","local":"C123ABC/attachments/1764153840123_log.txt"}],"isBot":false}`
	piMomBotLine  = `{"date":"2025-11-26T10:44:09.512Z","ts":"1764153842.000100","user":"bot","text":"Build is green.","attachments":[],"isBot":true}`
)

// TestOldLogLinesAreNamedOnce: lines of the original mom's format are still skipped, but the
// first store that meets them says so, once, with the import command, and mom's own lines
// around them read as before.
func TestOldLogLinesAreNamedOnce(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer // the store logs from the calling goroutine
	s, err := Open(t.TempDir(), WithLog(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for _, id := range []string{"C123ABC", "D456"} {
		ch, err := s.ChannelDir("slack-acme", id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ch.AppendLog(chat.Message{ID: "1", ChannelID: id, TS: time.Now(), Sender: chat.User{ID: "U1", Username: "ada"}, Text: "new"}); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(filepath.Join(ch.Dir(), "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(piMomUserLine + "\n" + piMomBotLine + "\n")
		f.Close()
		var texts []string
		if err := ch.ReadLog(0, func(m chat.Message, _ LogPos) error { texts = append(texts, m.Text); return nil }); err != nil {
			t.Fatal(err)
		}
		if tail, err := ch.TailMessages(5); err != nil || len(tail) != 1 || strings.Join(texts, "|") != "new" {
			t.Fatalf("read %q, tail %v %v", texts, tail, err)
		}
	}
	out := logged.String()
	if n := strings.Count(out, "pi's original mom"); n != 1 {
		t.Fatalf("said %d times (want once):\n%s", n, out)
	}
	if !strings.Contains(out, "channel=slack-acme/C123ABC") || !strings.Contains(out, "mom import <that directory> "+s.DataDir()+" --adapter slack-acme") {
		t.Fatalf("the hint does not name the channel and the command:\n%s", out)
	}
}

// TestOldContextIsNamed: a context.jsonl of session version 1, the original mom's, is set
// aside as before, and the log says it was the original's and what converts it.
func TestOldContextIsNamed(t *testing.T) {
	t.Parallel()
	var logged bytes.Buffer // the store logs from the calling goroutine
	s, err := Open(t.TempDir(), WithLog(slog.New(slog.NewTextHandler(&logged, nil))))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ch, err := s.ChannelDir("slack-acme", "C123ABC")
	if err == nil {
		err = ch.Create()
	}
	if err != nil {
		t.Fatal(err)
	}
	v1 := `{"type":"session","id":"x","timestamp":"2025-11-26T10:44:00.000Z","cwd":"/app","provider":"anthropic","modelId":"claude-sonnet-4-5","thinkingLevel":"off"}` + "\n"
	if err := os.WriteFile(filepath.Join(ch.Dir(), "context.jsonl"), []byte(v1), 0o644); err != nil {
		t.Fatal(err)
	}
	sess, err := ch.Session()
	if err != nil {
		t.Fatal(err)
	}
	if sess.Recovered() == "" {
		t.Fatal("the v1 context was not set aside")
	}
	if out := logged.String(); !strings.Contains(out, "pi's original mom") || !strings.Contains(out, ImportCommand) || !strings.Contains(out, "context.jsonl.v1-") {
		t.Fatalf("log:\n%s", out)
	}
}
