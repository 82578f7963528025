package events

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/hub"
)

// hubDouble records the events it is asked to run. Each run "finishes" at once unless hold is
// set, and at most queueCap may wait, as in the real hub.
type hubDouble struct {
	mu       sync.Mutex
	woken    []string // trigger texts
	held     []func()
	hold     bool
	queueCap int
}

func (h *hubDouble) Wake(adapter, channelID string, trigger chat.Message, done func()) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.queueCap > 0 && len(h.held) >= h.queueCap {
		return hub.ErrQueueFull
	}
	if trigger.WakeUpFile() == "" || trigger.Sender.ID != "EVENT" {
		return fmt.Errorf("a trigger without its event file or sender: %+v", trigger)
	}
	h.woken = append(h.woken, adapter+"/"+channelID+" "+trigger.Text)
	if h.hold {
		h.held = append(h.held, done)
		return nil
	}
	go done()
	return nil
}

func (h *hubDouble) texts() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.woken...)
}

type rig struct {
	t   *testing.T
	dir string
	hub *hubDouble
	w   *Watcher
}

func newRig(t *testing.T, before func(dir string)) *rig {
	t.Helper()
	return newRigAt(t, filepath.Join(t.TempDir(), "events"), before)
}

// newRigAt is newRig with the events directory at dir.
func newRigAt(t *testing.T, dir string, before func(dir string)) *rig {
	t.Helper()
	r := &rig{t: t, dir: dir, hub: &hubDouble{}}
	os.MkdirAll(r.dir, 0o755)
	if before != nil {
		before(r.dir)
	}
	r.w = NewWatcher(Options{Dir: confined.Root(r.dir), Adapters: []string{"acme"}, Hub: r.hub})
	if err := r.w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.w.Stop)
	return r
}

func (r *rig) write(name, body string) {
	r.t.Helper()
	if err := os.WriteFile(filepath.Join(r.dir, name), []byte(body), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *rig) exists(name string) bool {
	_, err := os.Stat(filepath.Join(r.dir, name))
	return err == nil
}

// eventually waits for cond; the bound guards against hangs, nothing asserts on timing.
func (r *rig) eventually(what string, cond func() bool) {
	r.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			r.t.Fatalf("timed out waiting for %s (woken: %q)", what, r.hub.texts())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func immediate(text string) string {
	return `{"type":"immediate","channelId":"acme/C1","text":"` + text + `"}`
}

func oneShot(text string, at time.Time) string {
	return `{"type":"one-shot","channelId":"acme/C1","text":"` + text + `","at":"` + at.Format(time.RFC3339Nano) + `"}`
}

func TestImmediateRunsAndIsDeleted(t *testing.T) {
	r := newRig(t, nil)
	r.write("hook.json", immediate("new ticket"))
	r.eventually("the event to run", func() bool { return len(r.hub.texts()) == 1 })
	if got := r.hub.texts()[0]; got != "acme/C1 [EVENT:hook.json:immediate] new ticket" {
		t.Errorf("woken with %q", got)
	}
	r.eventually("the file to be deleted", func() bool { return !r.exists("hook.json") })
}

func TestStartupDropsStaleAndPastEvents(t *testing.T) {
	r := newRig(t, func(dir string) {
		os.WriteFile(filepath.Join(dir, "stale.json"), []byte(immediate("old news")), 0o644)
		old := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Join(dir, "stale.json"), old, old)
		os.WriteFile(filepath.Join(dir, "past.json"), []byte(oneShot("too late", time.Now().Add(-time.Minute))), 0o644)
		os.WriteFile(filepath.Join(dir, "soon.json"), []byte(oneShot("on time", time.Now().Add(300*time.Millisecond))), 0o644)
	})
	r.eventually("the future one-shot to run", func() bool { return len(r.hub.texts()) == 1 })
	r.eventually("every file to be gone", func() bool {
		return !r.exists("stale.json") && !r.exists("past.json") && !r.exists("soon.json")
	})
	if got := r.hub.texts(); len(got) != 1 || !strings.Contains(got[0], "on time") {
		t.Errorf("woken %q; stale and past events must be deleted unrun", got)
	}
}

// TestImmediateWrittenWhileStartingRuns: mom's start counts from before its adapters connect,
// so an immediate file written while they did is run, and only one from before is stale.
func TestImmediateWrittenWhileStartingRuns(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "events")
	os.MkdirAll(dir, 0o755)
	started := time.Now().Add(-time.Minute) // the adapters took a minute to connect
	write := func(name, text string, mtime time.Time) {
		os.WriteFile(filepath.Join(dir, name), []byte(immediate(text)), 0o644)
		os.Chtimes(filepath.Join(dir, name), mtime, mtime)
	}
	write("during.json", "sent while mom was connecting", started.Add(30*time.Second))
	write("before.json", "sent before mom started", started.Add(-time.Minute))
	r := &rig{t: t, dir: dir, hub: &hubDouble{}}
	r.w = NewWatcher(Options{Dir: confined.Root(dir), Adapters: []string{"acme"}, Hub: r.hub, Started: started})
	if err := r.w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.w.Stop)
	r.eventually("both files to be handled", func() bool { return !r.exists("during.json") && !r.exists("before.json") })
	if got := r.hub.texts(); len(got) != 1 || !strings.Contains(got[0], "while mom was connecting") {
		t.Errorf("woken %q; want only the file written while mom was starting", got)
	}
}

func TestModifyReschedulesAndDeleteCancels(t *testing.T) {
	r := newRig(t, nil)
	r.write("later.json", oneShot("moved", time.Now().Add(time.Hour)))
	r.write("gone.json", oneShot("cancelled", time.Now().Add(400*time.Millisecond)))
	time.Sleep(2 * debounce) // let both be scheduled first
	r.write("later.json", oneShot("moved", time.Now().Add(200*time.Millisecond)))
	os.Remove(filepath.Join(r.dir, "gone.json"))
	r.eventually("the moved event", func() bool { return len(r.hub.texts()) >= 1 })
	time.Sleep(600 * time.Millisecond) // past the cancelled one's time
	if got := r.hub.texts(); len(got) != 1 || !strings.Contains(got[0], "moved") {
		t.Errorf("woken %q; want only the rescheduled event", got)
	}
}

func TestWriteThenRenameAndPartialWrites(t *testing.T) {
	r := newRig(t, nil)
	tmp := filepath.Join(r.dir, ".tmp-renamed")
	os.WriteFile(tmp, []byte(immediate("renamed in")), 0o644)
	os.Rename(tmp, filepath.Join(r.dir, "renamed.json"))

	f, _ := os.Create(filepath.Join(r.dir, "slow.json"))
	body := immediate("written slowly")
	f.WriteString(body[:10])
	time.Sleep(30 * time.Millisecond)
	f.WriteString(body[10:])
	f.Close()
	r.eventually("both events", func() bool { return len(r.hub.texts()) == 2 })
	if _, err := os.Stat(filepath.Join(r.dir, InvalidDir)); err == nil {
		t.Error("a file written in two pieces was set aside as invalid")
	}
}

func TestInvalidFileIsSetAsideWithItsReason(t *testing.T) {
	r := newRig(t, nil)
	r.write("typo.json", `{"type":"periodic","channelId":"acme/C1","text":"x","schedule":"0 9 * *","timezone":"UTC"}`)
	moved := filepath.Join(r.dir, InvalidDir, "typo.json")
	r.eventually("the file to move aside", func() bool { _, err := os.Stat(moved); return err == nil })
	note, err := os.ReadFile(moved + ".error.txt")
	if err != nil || !strings.Contains(string(note), "needs 5 fields") {
		t.Errorf("note = %q, %v", note, err)
	}
	if r.exists("typo.json") || len(r.hub.texts()) != 0 {
		t.Error("an invalid file stayed or ran")
	}
	r.eventually("the note", func() bool {
		return len(ListSetAside(confined.Root(r.dir))) == 1 && ListSetAside(confined.Root(r.dir))[0].Reason != ""
	})
	if got := ListSetAside(confined.Root(r.dir)); got[0].File != "typo.json" || !strings.Contains(got[0].Reason, "needs 5 fields") || strings.Contains(got[0].Reason, "was moved here") {
		t.Errorf("ListSetAside = %+v; want typo.json with the reason alone", got)
	}
}

func TestFullQueueDropsTheEventAsIfRun(t *testing.T) {
	r := newRig(t, nil)
	r.hub.mu.Lock()
	r.hub.hold, r.hub.queueCap = true, 2
	r.hub.mu.Unlock()
	for i := range 5 {
		r.write(fmt.Sprintf("burst-%d.json", i), immediate(fmt.Sprint("item ", i)))
	}
	r.eventually("the dropped files to be deleted", func() bool {
		n := 0
		for i := range 5 {
			if r.exists(fmt.Sprintf("burst-%d.json", i)) {
				n++
			}
		}
		return n == 2 // the two the hub holds are still running
	})
	if got := r.hub.texts(); len(got) != 2 {
		t.Errorf("%d events accepted, want the cap of 2", len(got))
	}
	r.hub.mu.Lock()
	held := r.hub.held
	r.hub.mu.Unlock()
	for _, done := range held {
		done()
	}
	r.eventually("every file to be gone", func() bool {
		entries, _ := os.ReadDir(r.dir)
		return len(entries) == 0
	})
}

// TestPeriodicKeepsToItsScheduleAfterAStall: a periodic event whose fire comes late (mom was
// stopped, the machine suspended) runs once and is then due at its next time after now, not
// at the next time after the missed one: no run is caught up, and the lateness does not
// shift the schedule.
func TestPeriodicKeepsToItsScheduleAfterAStall(t *testing.T) {
	r := newRig(t, nil)
	r.write("minutely.json", `{"type":"periodic","channelId":"acme/C1","text":"tick","schedule":"* * * * *","timezone":"UTC"}`)
	var e *entry
	r.eventually("the event to be scheduled", func() bool {
		r.w.mu.Lock()
		defer r.w.mu.Unlock()
		e = r.w.files["minutely.json"]
		return e != nil && !e.due.IsZero()
	})
	r.w.mu.Lock()
	gen, missed := e.gen, e.due.Add(-4*time.Minute) // as if its timer fired 4 minutes late
	r.w.mu.Unlock()

	before := time.Now()
	r.w.fire(e, gen, missed)
	after := time.Now()
	r.eventually("the late fire to run", func() bool { return len(r.hub.texts()) == 1 })
	r.w.mu.Lock()
	next := e.due
	r.w.mu.Unlock()
	// The minute after the fire; the fire happened between before and after.
	first, last := before.Truncate(time.Minute).Add(time.Minute), after.Truncate(time.Minute).Add(time.Minute)
	if !next.Equal(first) && !next.Equal(last) {
		t.Errorf("after a fire due at %s seen at %s, the next is due at %s; want %s, the next minute", missed, before, next, first)
	}
	if got := r.hub.texts(); len(got) != 1 || !strings.Contains(got[0], "tick") {
		t.Errorf("woken %q; want one run, no catching up", got)
	}
}

// TestOneShotMissedWhileDownRunsWithinTheWindow: a one-shot whose time passed while mom was
// down runs at start-up if it passed within CatchUpWithin; an older one is deleted unrun.
func TestOneShotMissedWhileDownRunsWithinTheWindow(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "events")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "missed.json"), []byte(oneShot("missed", time.Now().Add(-5*time.Minute))), 0o644)
	os.WriteFile(filepath.Join(dir, "ancient.json"), []byte(oneShot("ancient", time.Now().Add(-2*time.Hour))), 0o644)
	r := &rig{t: t, dir: dir, hub: &hubDouble{}}
	r.w = NewWatcher(Options{Dir: confined.Root(dir), Adapters: []string{"acme"}, Hub: r.hub, CatchUpWithin: 30 * time.Minute})
	if err := r.w.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.w.Stop)
	r.eventually("both files to be gone", func() bool { return !r.exists("missed.json") && !r.exists("ancient.json") })
	if got := r.hub.texts(); len(got) != 1 || !strings.Contains(got[0], "missed") {
		t.Errorf("woken %q; want only the one-shot missed within the window", got)
	}
}
