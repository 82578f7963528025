package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
)

// secretBeside writes a file outside the workspace, as config.json is, and returns its path.
func secretBeside(t *testing.T, s *Store) string {
	t.Helper()
	p := filepath.Join(s.DataDir(), "config.json")
	if err := os.WriteFile(p, []byte(`{"token":"SECRET"}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

func unchanged(t *testing.T, p string) {
	t.Helper()
	if b, err := os.ReadFile(p); err != nil || string(b) != `{"token":"SECRET"}`+"\n" {
		t.Fatalf("%s changed: %q %v", p, b, err)
	}
	ents, _ := os.ReadDir(filepath.Dir(p))
	for _, e := range ents {
		if e.Name() != "config.json" && e.Name() != "workspace" {
			t.Fatalf("something was created beside %s: %s", p, e.Name())
		}
	}
}

// TestLinksPlantedByCommandsLeadNowhere plants, in a channel's directory and the
// workspace, the links a command in the sandbox could make, and checks that mom's own
// reads and writes neither reach the file they point to nor hand its contents out.
func TestLinksPlantedByCommandsLeadNowhere(t *testing.T) {
	s := openStore(t)
	secret := secretBeside(t, s)
	c, err := s.ChannelDir("slack", "C1")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.AppendLog(chat.Message{ID: "1", Text: "hi"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Release("slack", "C1"); err != nil {
		t.Fatal(err)
	}
	c, _ = s.ChannelDir("slack", "C1")
	dir := c.Dir()
	for _, name := range []string{"log.jsonl", "MEMORY.md", "context.jsonl"} {
		os.Remove(filepath.Join(dir, name))
		if err := os.Symlink(secret, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	os.Remove(filepath.Join(s.Workspace(), "MEMORY.md"))
	if err := os.Symlink("../config.json", filepath.Join(s.Workspace(), "MEMORY.md")); err != nil {
		t.Fatal(err)
	}
	os.RemoveAll(filepath.Join(dir, "attachments"))
	if err := os.Symlink(s.DataDir(), filepath.Join(dir, "attachments")); err != nil {
		t.Fatal(err)
	}

	if err := c.ReadLog(0, func(m chat.Message, _ LogPos) error {
		t.Errorf("read a message through the link: %+v", m)
		return nil
	}); !errors.Is(err, confined.ErrRefused) {
		t.Errorf("reading a linked log.jsonl: %v", err)
	}
	if msgs, err := c.TailMessages(10); len(msgs) != 0 {
		t.Errorf("tail through the link: %v %v", msgs, err)
	}
	// Appending sets the link aside, kept, and starts a new history: the channel goes on.
	if _, err := c.AppendLog(chat.Message{ID: "2", Text: "appended to the secret?"}); err != nil {
		t.Errorf("appending after a link was planted: %v", err)
	}
	if msgs, _ := c.TailMessages(10); len(msgs) != 1 || msgs[0].ID != "2" {
		t.Errorf("the new history: %+v", msgs)
	}
	kept, _ := filepath.Glob(filepath.Join(dir, "log.jsonl.refused-*"))
	if len(kept) != 1 {
		t.Errorf("the planted link was not kept aside: %v", kept)
	} else if target, err := os.Readlink(kept[0]); err != nil || target != secret {
		t.Errorf("what was kept aside is not the planted link: %q %v", target, err)
	}
	for _, mem := range []func() (string, error){c.Memory, s.Memory} {
		if m, err := mem(); strings.Contains(m, "SECRET") || !errors.Is(err, confined.ErrRefused) {
			t.Errorf("memory through a link: %q %v", m, err)
		}
	}
	if _, err := c.SaveAttachment("x.txt", time.Now(), strings.NewReader("planted"), 0); !errors.Is(err, confined.ErrRefused) {
		t.Errorf("saving into a linked attachments/: %v", err)
	}
	if _, err := c.OpenAttachment("attachments/config.json"); !errors.Is(err, confined.ErrRefused) {
		t.Errorf("opening through a linked attachments/: %v", err)
	}
	if _, err := c.OpenAttachment("../../config.json"); err == nil {
		t.Error("OpenAttachment took a path outside attachments/")
	}

	// A context.jsonl that is a link is kept aside (as a link) and a fresh one started.
	sess, err := c.Session()
	if err != nil {
		t.Fatalf("session over a planted link: %v", err)
	}
	if sess.Recovered() == "" {
		t.Error("the planted context.jsonl was not reported")
	}
	if fi, err := os.Lstat(filepath.Join(dir, "context.jsonl")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("context.jsonl is not a file of its own: %v", err)
	}
	unchanged(t, secret)
}

// TestChannelsSkipsLinks: a link in channels/ is not listed as a channel, so catch-up and
// events never open files through it.
func TestChannelsSkipsLinks(t *testing.T) {
	s := openStore(t)
	c, _ := s.ChannelDir("slack", "C1")
	c.AppendLog(chat.Message{ID: "1"})
	root := filepath.Join(s.Workspace(), "channels")
	os.Symlink("slack", filepath.Join(root, "evil"))
	os.Symlink("C1", filepath.Join(root, "slack", "C2"))
	refs, err := s.Channels()
	if err != nil {
		t.Fatal(err)
	}
	if len(refs) != 1 || refs[0].Key() != "slack/C1" {
		t.Fatalf("channels: %v", refs)
	}
}
