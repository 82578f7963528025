package events

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// hostileRig is an events directory inside a workspace inside a data directory, with a
// config.json and a tools/ folder beside the workspace, as a real data directory has: the
// things a command in the sandbox would like to reach through the watcher.
type hostileRig struct {
	*rig
	data string
}

func newHostileRig(t *testing.T, plant func(events, data string)) *hostileRig {
	t.Helper()
	data := t.TempDir()
	os.MkdirAll(filepath.Join(data, "tools"), 0o755)
	os.WriteFile(filepath.Join(data, "config.json"), []byte(`{"sandbox":{"type":"bwrap"}}`), 0o600)
	events := filepath.Join(data, "workspace", "events")
	os.MkdirAll(events, 0o755)
	r := newRigAt(t, events, func(dir string) { plant(dir, data) })
	return &hostileRig{rig: r, data: data}
}

// untouched checks that nothing reached the data directory outside the workspace.
func (h *hostileRig) untouched() {
	h.t.Helper()
	if b, _ := os.ReadFile(filepath.Join(h.data, "config.json")); string(b) != `{"sandbox":{"type":"bwrap"}}` {
		h.t.Errorf("config.json changed: %q", b)
	}
	if ents, _ := os.ReadDir(filepath.Join(h.data, "tools")); len(ents) != 0 {
		h.t.Errorf("something was moved into tools/: %v", ents)
	}
	ents, _ := os.ReadDir(h.data)
	for _, e := range ents {
		if n := e.Name(); n != "config.json" && n != "tools" && n != "workspace" {
			h.t.Errorf("something appeared in the data directory: %s", n)
		}
	}
}

// TestSetAsideNeverFollowsLinks is the attack that gave code execution on the host: .invalid
// made a link to the data directory's tools/ (or the data directory itself), then a
// directory evil.json/ holding a tool.json, or a file config.json, dropped into events/. The
// watcher cannot parse either and sets it aside; the rename must not go through the link.
func TestSetAsideNeverFollowsLinks(t *testing.T) {
	t.Parallel()
	for _, target := range []string{"../../tools", "../.."} {
		t.Run(target, func(t *testing.T) {
			t.Parallel()
			// Planted before the watcher starts, so its first scan takes both files in.
			h := newHostileRig(t, func(events, data string) {
				os.Symlink(target, filepath.Join(events, InvalidDir))
				os.MkdirAll(filepath.Join(events, "evil.json"), 0o755)
				os.WriteFile(filepath.Join(events, "evil.json", "tool.json"), []byte(`{"name":"evil","run":"./x.sh"}`), 0o644)
				os.WriteFile(filepath.Join(events, "config.json"), []byte(`{"sandbox":{"type":"host"}}`), 0o644)
			})
			h.eventually("both files to be given up on", func() bool {
				h.w.mu.Lock()
				defer h.w.mu.Unlock()
				return len(h.w.files) == 0
			})
			h.w.Stop() // nothing is pending any more; no late rename can follow
			h.untouched()
			// With nowhere safe to put them, both stay where the command left them.
			for _, name := range []string{"evil.json/tool.json", "config.json"} {
				if _, err := os.Stat(filepath.Join(h.dir, name)); err != nil {
					t.Errorf("%s was moved: %v", name, err)
				}
			}
			if len(h.hub.texts()) != 0 {
				t.Errorf("ran %q", h.hub.texts())
			}
		})
	}
}

// TestNoteNeverWritesThroughALink: a link planted where the note of a set-aside file goes is
// replaced by the note, and the file it pointed at keeps its contents.
func TestNoteNeverWritesThroughALink(t *testing.T) {
	t.Parallel()
	h := newHostileRig(t, func(events, data string) {
		os.MkdirAll(filepath.Join(events, InvalidDir), 0o755)
		os.Symlink(filepath.Join(data, "config.json"), filepath.Join(events, InvalidDir, "bad.json"+noteSuffix))
	})
	h.write("bad.json", "{not json")
	moved := filepath.Join(h.dir, InvalidDir, "bad.json")
	h.eventually("the file to be set aside", func() bool { _, err := os.Stat(moved); return err == nil })
	h.eventually("the note", func() bool {
		fi, err := os.Lstat(moved + noteSuffix)
		return err == nil && fi.Mode().IsRegular()
	})
	h.untouched()
}

// TestHugeAndSpecialFilesAreSetAsideUnread: a sparse 100 GB file would take all memory if
// read whole, at every start; a FIFO would block the reader forever; a link could make mom
// read any file of the host. Each is set aside with a note saying what it is, and mom goes
// on scheduling the other files.
func TestHugeAndSpecialFilesAreSetAsideUnread(t *testing.T) {
	t.Parallel()
	fifo := false
	h := newHostileRig(t, func(events, data string) {
		f, _ := os.Create(filepath.Join(events, "huge.json"))
		f.Truncate(100 << 30)
		f.Close()
		fifo = syscall.Mkfifo(filepath.Join(events, "pipe.json"), 0o644) == nil
		os.Symlink(filepath.Join(data, "config.json"), filepath.Join(events, "link.json"))
	})
	h.write("fine.json", immediate("still works"))
	h.eventually("the valid event to run", func() bool { return len(h.hub.texts()) == 1 })
	want := map[string]string{"huge.json": "bytes; an event file may have at most", "link.json": "is a symbolic link"}
	if fifo {
		want["pipe.json"] = "is a named pipe"
	}
	for name, reason := range want {
		note := filepath.Join(h.dir, InvalidDir, name+noteSuffix)
		h.eventually(name+" to be set aside", func() bool { _, err := os.Stat(note); return err == nil })
		if b, _ := os.ReadFile(note); !strings.Contains(string(b), reason) {
			t.Errorf("note of %s = %q, want %q", name, b, reason)
		}
	}
	h.untouched()
}
