//go:build unix

package confined

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
)

// plant makes the tree an attacker would: a secret outside the workspace, and links inside
// it that point at the secret, at the directory holding it, and at a FIFO and a huge file.
func plant(t *testing.T) (ws Dir, secretDir string) {
	t.Helper()
	top := t.TempDir()
	secretDir = filepath.Join(top, "secret")
	must(t, os.MkdirAll(secretDir, 0o755))
	must(t, os.WriteFile(filepath.Join(secretDir, "config.json"), []byte("TOKEN"), 0o600))
	wsPath := filepath.Join(top, "workspace")
	must(t, os.MkdirAll(filepath.Join(wsPath, "channels", "a", "c"), 0o755))
	must(t, os.Symlink(filepath.Join(secretDir, "config.json"), filepath.Join(wsPath, "MEMORY.md")))
	must(t, os.Symlink("../../../../secret", filepath.Join(wsPath, "channels", "a", "c", "attachments")))
	must(t, os.Symlink("../secret", filepath.Join(wsPath, "events")))
	return Root(wsPath), secretDir
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func wantRefused(t *testing.T, what string, err error) {
	t.Helper()
	if !errors.Is(err, ErrRefused) {
		t.Fatalf("%s: got %v, want a refusal", what, err)
	}
}

func TestLinksAreNeverFollowed(t *testing.T) {
	t.Parallel()
	ws, secret := plant(t)
	ch := ws.Join("channels", "a", "c")

	_, err := ws.ReadFile("MEMORY.md", 1<<20)
	wantRefused(t, "reading a linked file", err)
	if !strings.Contains(err.Error(), "MEMORY.md is a symbolic link") {
		t.Errorf("the error should name the file and say why: %v", err)
	}
	_, err = ch.OpenFile("attachments/x", os.O_WRONLY|os.O_CREATE, 0o644)
	wantRefused(t, "creating through a linked directory", err)
	_, err = ws.ReadDir("events")
	wantRefused(t, "listing a linked directory", err)
	wantRefused(t, "mkdir through a linked directory", ch.MkdirAll("attachments/deeper", 0o755))
	_, _, err = ch.CreateTemp("attachments", "x-*")
	wantRefused(t, "a temporary file through a linked directory", err)
	wantRefused(t, "renaming into a linked directory", ws.Rename("channels/a/c", "events/c"))
	wantRefused(t, "a hard link into a linked directory", ws.WriteFile("events/config.json", []byte("x"), 0o644))

	// Writing over a link replaces the link, and the file it pointed at keeps its contents.
	must(t, ws.WriteFile("MEMORY.md", []byte("memory"), 0o644))
	if b, _ := os.ReadFile(filepath.Join(secret, "config.json")); string(b) != "TOKEN" {
		t.Fatalf("the secret was changed through a link: %q", b)
	}
	if fi, err := ws.Stat("MEMORY.md"); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("MEMORY.md is not a file of its own now: %v %v", fi, err)
	}
	// Removing a link removes the link.
	must(t, ws.Remove("events"))
	if _, err := os.Stat(secret); err != nil {
		t.Fatalf("removing a link removed its target: %v", err)
	}
	ents, _ := os.ReadDir(secret)
	if len(ents) != 1 {
		t.Fatalf("the secret directory changed: %v", ents)
	}
}

func TestStatDescribesTheLinkItself(t *testing.T) {
	t.Parallel()
	ws, _ := plant(t)
	fi, err := ws.Stat("MEMORY.md")
	must(t, err)
	if fi.Mode()&fs.ModeSymlink == 0 || fi.Name() != "MEMORY.md" {
		t.Fatalf("Stat followed the link: %v %v", fi.Name(), fi.Mode())
	}
	if _, err := ws.Stat("nothing"); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("a missing file: %v", err)
	}
	ents, err := ws.ReadDir("")
	must(t, err)
	var names []string
	for _, e := range ents {
		names = append(names, e.Name())
	}
	if strings.Join(names, ",") != "MEMORY.md,channels,events" {
		t.Fatalf("ReadDir: %v", names)
	}
}

func TestSpecialAndHugeFilesAreRefused(t *testing.T) {
	t.Parallel()
	ws, _ := plant(t)
	if err := syscall.Mkfifo(filepath.Join(ws.Path(), "fifo"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	// A FIFO with no writer would block an ordinary open forever.
	_, err := ws.ReadFile("fifo", 100)
	wantRefused(t, "reading a FIFO", err)
	_, err = ws.OpenFile("fifo", os.O_WRONLY|os.O_APPEND, 0)
	wantRefused(t, "appending to a FIFO", err)
	_, err = ws.Open("channels")
	wantRefused(t, "opening a directory as a file", err)

	f, err := os.Create(filepath.Join(ws.Path(), "huge.json"))
	must(t, err)
	must(t, f.Truncate(100<<30)) // 100 GB, sparse: reading it would take all memory
	f.Close()
	_, err = ws.ReadFile("huge.json", 64<<10)
	if !errors.Is(err, ErrTooLarge) || !errors.Is(err, ErrRefused) {
		t.Fatalf("a huge file: %v", err)
	}
}

func TestNamesThatLeadOutAreRefused(t *testing.T) {
	t.Parallel()
	ws, _ := plant(t)
	for _, name := range []string{"../secret/config.json", "/etc/passwd", "channels/../../secret/config.json", "a\x00b"} {
		if _, err := ws.Open(name); !errors.Is(err, ErrRefused) {
			t.Errorf("Open(%q): %v", name, err)
		}
	}
	if _, err := ws.Join("..", "secret").ReadDir(""); !errors.Is(err, ErrRefused) {
		t.Errorf("Join(..): %v", err)
	}
	// Inner ".." that stays below is fine.
	must(t, ws.MkdirAll("channels/a/c/scratch", 0o755))
	must(t, ws.WriteFile("channels/a/c/scratch/../note.txt", []byte("ok"), 0o644))
	if b, err := ws.Join("channels", "a", "c").ReadFile("note.txt", 10); err != nil || string(b) != "ok" {
		t.Fatalf("%q %v", b, err)
	}
}

func TestFilesWorkAsUsual(t *testing.T) {
	t.Parallel()
	ws := Root(t.TempDir())
	ch := ws.Join("channels", "a", "c")
	must(t, ch.MkdirAll("attachments", 0o755))
	f, err := ch.OpenFile("log.jsonl", os.O_RDWR|os.O_APPEND|os.O_CREATE, 0o644)
	must(t, err)
	if _, err := f.WriteString("{}\n"); err != nil {
		t.Fatal(err)
	}
	f.Close()
	tmp, name, err := ch.CreateTemp("attachments", ".incoming-*")
	must(t, err)
	tmp.WriteString("data")
	tmp.Close()
	if !strings.HasPrefix(name, "attachments/.incoming-") {
		t.Fatalf("temp name %q", name)
	}
	must(t, ch.Link(name, "attachments/file.txt"))
	if err := ch.Link(name, "attachments/file.txt"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("a second link to a taken name: %v", err)
	}
	must(t, ch.Remove(name))
	must(t, ch.Rename("attachments/file.txt", "attachments/renamed.txt"))
	b, err := ch.ReadFile("attachments/renamed.txt", 4)
	if err != nil || string(b) != "data" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := ch.ReadFile("attachments/renamed.txt", 3); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("limit: %v", err)
	}
	if got := ch.Path(); got != filepath.Join(ws.Path(), "channels", "a", "c") {
		t.Fatalf("Path %s", got)
	}
	if runtime.GOOS == "linux" {
		fi, _ := ch.Stat("log.jsonl")
		if fi.Size() != 3 || fi.ModTime().IsZero() {
			t.Fatalf("stat: %d %v", fi.Size(), fi.ModTime())
		}
	}
}

// TestLinkSwappedInBetween replaces a directory with a link while operations run in
// another goroutine: not one of them may reach the target.
func TestLinkSwappedInBetween(t *testing.T) {
	t.Parallel()
	ws, secret := plant(t)
	ch := ws.Join("channels", "a", "c")
	must(t, os.Remove(filepath.Join(ch.Path(), "attachments")))
	must(t, ch.MkdirAll("real", 0o755))
	stop := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		p := filepath.Join(ch.Path(), "attachments")
		for {
			select {
			case <-stop:
				return
			default:
			}
			os.Rename(filepath.Join(ch.Path(), "real"), p)
			os.Rename(p, filepath.Join(ch.Path(), "real"))
			os.Symlink("../../../../secret", p)
			os.Remove(p)
		}
	}()
	for range 2000 {
		if f, err := ch.OpenFile("attachments/config.json", os.O_WRONLY|os.O_TRUNC, 0); err == nil {
			f.WriteString("PWNED")
			f.Close()
		}
		ch.WriteFile("attachments/new.txt", []byte("x"), 0o644)
	}
	close(stop)
	<-done
	if b, _ := os.ReadFile(filepath.Join(secret, "config.json")); string(b) != "TOKEN" {
		t.Fatalf("a write went through a swapped-in link: %q", b)
	}
	if _, err := os.Stat(filepath.Join(secret, "new.txt")); err == nil {
		t.Fatal("a file was created through a swapped-in link")
	}
}
