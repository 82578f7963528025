package sandbox

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// newDataDir makes a data directory as mom lays it out: config.json beside the workspace,
// and two channels of adapter "a" with a log each.
func newDataDir(t *testing.T) (data, ws string) {
	t.Helper()
	data = t.TempDir()
	ws = filepath.Join(data, "workspace")
	for _, c := range []string{"c1", "c2", "c3"} {
		dir := filepath.Join(ws, "channels", "a", c)
		if err := os.MkdirAll(filepath.Join(dir, "scratch"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte("log of "+c+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(data, "config.json"), []byte(`{"secret": "xoxb-config-secret"}`), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "MEMORY.md"), []byte("shared memory\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return data, ws
}

func TestWorkspaceMapTranslates(t *testing.T) {
	_, ws := newDataDir(t)
	m, err := newWorkspaceMap(ws)
	if err != nil {
		t.Fatal(err)
	}
	for in, want := range map[string]string{
		"/workspace":                    ws,
		"/workspace/channels/a/c1/x.md": filepath.Join(ws, "channels/a/c1/x.md"),
		"/workspace/a/../b":             filepath.Join(ws, "b"),
	} {
		if got, err := m.hostPath(in); err != nil || got != want {
			t.Errorf("hostPath(%q) = %q, %v; want %q", in, got, err, want)
		}
		if got := m.sandboxPath(want); got != filepath.Clean(in) {
			t.Errorf("sandboxPath(%q) = %q, want %q", want, got, filepath.Clean(in))
		}
	}
	for _, bad := range []string{"/workspace/../config.json", "/etc/passwd", "/workspacex", "relative/path"} {
		if got, err := m.hostPath(bad); err == nil {
			t.Errorf("hostPath(%q) = %q, want an error", bad, got)
		}
	}
	if got := m.sandboxPath("/elsewhere/file"); got != "/elsewhere/file" {
		t.Errorf("a host path outside the workspace became %q", got)
	}
}

// TestConfineRefusesEscapes plants the links a command inside a sandbox could make and checks
// that the file tools, which run on the host, do not follow them out.
func TestConfineRefusesEscapes(t *testing.T) {
	data, ws := newDataDir(t)
	m, err := newWorkspaceMap(ws)
	if err != nil {
		t.Fatal(err)
	}
	links := map[string]string{
		"up":                 "../config.json",                   // relative, out of the workspace
		"abs-host":           filepath.Join(data, "config.json"), // a host path: inside, it means nothing
		"abs-etc":            "/etc/passwd",
		"dir-up":             "..",
		"loop":               "loop",
		"other":              "channels/a/c2",             // another channel's directory
		"dangling":           "../new-file-beside-config", // a write through it would land outside
		"inside":             "/workspace/MEMORY.md",      // an absolute link inside the sandbox: fine
		"channels/a/c1/mine": "../c1/log.jsonl",           // a link within the channel: fine
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(ws, name)); err != nil {
			t.Fatal(err)
		}
	}
	only := visibility{"channels/a/c1": true}
	ctx := context.Background()
	for _, p := range []string{
		"/workspace/up", "/workspace/abs-host", "/workspace/abs-etc", "/workspace/dir-up/config.json",
		"/workspace/loop", "/workspace/dangling", "/workspace/../config.json", "/etc/hostname",
		"/workspace/channels/a/c1/../../../../config.json",
	} {
		if f, err := m.open(ctx, p, nil); err == nil {
			b, _ := io.ReadAll(f)
			f.Close()
			t.Errorf("open %s read %q, want a refusal", p, b)
		}
		if err := m.writeFile(ctx, p, strings.NewReader("x"), nil, nil); err == nil {
			t.Errorf("write %s succeeded, want a refusal", p)
		}
		if _, err := m.confinedHostPath(p, nil); err == nil {
			t.Errorf("host path of %s given out", p)
		}
	}
	if _, err := os.Stat(filepath.Join(data, "new-file-beside-config")); err == nil {
		t.Error("a write through a dangling link created a file outside the workspace")
	}
	if b, _ := os.ReadFile(filepath.Join(data, "config.json")); !strings.Contains(string(b), "xoxb-config-secret") {
		t.Errorf("config.json was changed: %q", b)
	}

	for _, p := range []string{"/workspace/other/log.jsonl", "/workspace/channels/a/c2/log.jsonl", "/workspace/channels/a/c2"} {
		_, err := m.open(ctx, p, only)
		if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "another channel") {
			t.Errorf("open %s under channel isolation: %v, want a hidden-channel error", p, err)
		}
		if _, err := m.stat(ctx, p, only); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("stat %s under channel isolation: %v", p, err)
		}
	}
	for p, want := range map[string]string{
		"/workspace/inside":                  "shared memory\n",
		"/workspace/channels/a/c1/mine":      "log of c1\n",
		"/workspace/channels/a/c1/log.jsonl": "log of c1\n",
	} {
		f, err := m.open(ctx, p, only)
		if err != nil {
			t.Errorf("open %s: %v", p, err)
			continue
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if string(b) != want {
			t.Errorf("open %s read %q, want %q", p, b, want)
		}
	}
	if err := m.writeFile(ctx, "/workspace/channels/a/c1/scratch/new/out.txt", strings.NewReader("ok"), only, nil); err != nil {
		t.Errorf("write in the own channel: %v", err)
	}
	if got, _ := os.ReadFile(filepath.Join(ws, "channels/a/c1/scratch/new/out.txt")); string(got) != "ok" {
		t.Errorf("written file holds %q", got)
	}
}

func TestChannelKey(t *testing.T) {
	for rel, want := range map[string]string{
		"channels/a/c1":           "channels/a/c1",
		"channels/a/c1/log.jsonl": "channels/a/c1",
		"channels/a":              "",
		"channels":                "",
		"skills/x/SKILL.md":       "",
		".":                       "",
	} {
		if got := channelKey(rel); got != want {
			t.Errorf("channelKey(%q) = %q, want %q", rel, got, want)
		}
	}
}

// TestWriteSurvivesASwappedDirectory: a command may swap a directory for a symbolic link
// after the write tool has checked the path and before it writes. The write then goes
// through the link as it is at that moment: out of the workspace, or into a channel the run
// may not see. Neither may happen; the write fails and leaves nothing behind.
func TestWriteSurvivesASwappedDirectory(t *testing.T) {
	data, ws := newDataDir(t)
	m, err := newWorkspaceMap(ws)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(data, "outside")
	if err := os.MkdirAll(outside, 0o755); err != nil {
		t.Fatal(err)
	}
	hidden := filepath.Join(ws, "channels", "a", "c2")
	only := visibility{"channels/a/c1": true}
	for name, target := range map[string]string{"out": outside, "hidden": hidden} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(ws, "channels", "a", "c1", "swapped-"+name)
			if err := os.Symlink(target, dir); err != nil { // swapped in after the check
				t.Fatal(err)
			}
			rel, _ := within(m.host, filepath.Join(dir, "note.txt"))
			check := func(f *os.File) error { return m.checkOpened(f, "/workspace/"+rel, only) }
			if err := m.writeConfined(context.Background(), rel, strings.NewReader("x"), check); err == nil {
				t.Error("the write went through the swapped-in link")
			}
			entries, _ := os.ReadDir(target)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), ".note.txt") || e.Name() == "note.txt" {
					t.Errorf("the write left %s in %s", e.Name(), target)
				}
			}
		})
	}
}
