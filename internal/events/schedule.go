package events

import (
	"errors"
	"fmt"
	"io/fs"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
)

// MaxFileSize is the largest wake-up file mom reads. They are a few lines of JSON; a larger
// file (a command could leave a sparse 100 GB one) is set aside unread.
const MaxFileSize = 64 << 10

// read parses a file and schedules it; gen is the version of the file the read was planned
// for, so a read overtaken by a newer change does nothing.
func (w *Watcher) read(name string, gen int) {
	data, info, err := readFile(w.opts.Dir, name)
	if errors.Is(err, fs.ErrNotExist) {
		w.removed(name)
		return
	}
	// A link, a directory, a pipe or an oversized file will not become a wake-up by
	// waiting: it is set aside at once.
	final := errors.Is(err, confined.ErrRefused)
	var wake WakeUp
	if err == nil {
		wake, err = Parse(name, data, w.opts.Adapters)
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	e := w.files[name]
	if w.closed || e == nil || e.gen != gen {
		return
	}
	if err != nil {
		e.failures++
		if e.failures <= parseTries && !final {
			w.readLaterLocked(e, firstRetry<<(e.failures-1))
			return
		}
		delete(w.files, name)
		go w.setAside(name, err)
		return
	}
	e.wake = wake
	now := time.Now()
	switch {
	case wake.Type == Immediate && e.atStart && info.ModTime().Before(w.start):
		w.log.Info("deleting a stale immediate event written while mom was not running", "file", name)
		w.forgetLocked(e)
	case wake.Type == OneShot && wake.At.Before(now) && e.atStart && now.Sub(wake.At) <= w.opts.CatchUpWithin:
		w.log.Info("running a one-shot event whose time passed while mom was not running", "file", name, "at", wake.raw)
		w.armLocked(e, wake.At)
	case wake.Type == OneShot && wake.At.Before(now):
		w.log.Info("deleting a one-shot event whose time has passed", "file", name, "at", wake.raw)
		w.forgetLocked(e)
	default:
		w.armLocked(e, now)
	}
}

// armLocked sets the timer for the wake-up's next time after from. The wait is measured on the
// clock, not from from, so a fire's lateness never carries over into the next one. Waits
// longer than maxTimerGap are taken in steps, each re-reading the clock, so a clock that
// jumps (suspend, NTP) cannot make a one-shot months away fire late.
func (w *Watcher) armLocked(e *entry, from time.Time) {
	due := e.wake.Next(from)
	if due.IsZero() {
		w.log.Warn("the event's schedule never fires again", "file", e.name)
		return
	}
	e.due = due
	gen := e.gen
	if wait := time.Until(due); wait > maxTimerGap {
		e.timer = time.AfterFunc(maxTimerGap, func() {
			w.mu.Lock()
			defer w.mu.Unlock()
			if cur := w.files[e.name]; cur == e && e.gen == gen && !w.closed {
				w.armLocked(e, time.Now())
			}
		})
		return
	}
	w.log.Debug("event scheduled", "file", e.name, "due", due)
	e.timer = time.AfterFunc(max(time.Until(due), 0), func() { w.fire(e, gen, due) })
}

// fire hands a due wake-up to the hub and plans what comes after: the next time of a
// periodic one, the deletion of an immediate or one-shot file once it has run.
func (w *Watcher) fire(e *entry, gen int, due time.Time) {
	w.mu.Lock()
	if w.closed || w.files[e.name] != e || e.gen != gen {
		w.mu.Unlock()
		return
	}
	wake := e.wake
	if wake.Type == Periodic {
		// The next time after this one, so it is never skipped, and after now: a fire that
		// comes late (a stopped process, a suspended machine) does not catch up on the runs
		// missed meanwhile, one after another, and the schedule stays on its times.
		w.armLocked(e, later(due, time.Now()))
	}
	w.mu.Unlock()

	done := func() {}
	if wake.Type != Periodic {
		done = func() { w.finished(e, gen) }
	}
	now := time.Now()
	trigger := chat.Message{
		ID: fmt.Sprintf("event-%d", now.UnixNano()), TS: now,
		Sender:   chat.User{ID: "EVENT", Username: "EVENT"},
		Text:     wake.Trigger(),
		Metadata: map[string]any{chat.WakeUpKey: wake.File},
	}
	w.log.Info("event due", "file", wake.File, "channel", wake.ChannelID(), "late", now.Sub(due).Round(time.Millisecond))
	err := w.opts.Hub.Wake(wake.Adapter, wake.Channel, trigger, done)
	switch {
	case queueFull(err):
		// A full queue drops the wake-up as the spec says; the file is handled as if it ran.
		w.log.Warn("event dropped", "file", wake.File, "channel", wake.ChannelID(), "err", err)
		done()
	case err != nil:
		// mom is shutting down, or the adapter is gone: the file stays for next time.
		w.log.Warn("event not run", "file", wake.File, "channel", wake.ChannelID(), "err", err)
	}
}

// finished deletes an immediate or one-shot file after its run, unless it was changed since
// it fired (then the new version is scheduled on its own).
func (w *Watcher) finished(e *entry, gen int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.files[e.name] != e || e.gen != gen {
		return
	}
	w.forgetLocked(e)
}

// forgetLocked deletes the file and its entry.
func (w *Watcher) forgetLocked(e *entry) {
	e.cancel()
	delete(w.files, e.name)
	if err := w.opts.Dir.Remove(e.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		w.log.Warn("could not delete an event file", "file", e.name, "err", err)
	}
}

// setAside moves a file that is not a valid wake-up into .invalid/, next to a note saying why,
// so a mistake is visible and nothing written is lost. Everything happens inside the events
// directory without following links: a command may have made .invalid, or the note's name,
// a link to somewhere else, and a rename or write through it would land there.
func (w *Watcher) setAside(name string, reason error) {
	w.log.Error("invalid event file moved aside", "file", name, "to", InvalidDir+"/"+name, "err", reason)
	dir := w.opts.Dir
	if err := dir.MkdirAll(InvalidDir, 0o755); err != nil {
		w.log.Warn("could not create the folder for invalid events; the file stays where it is", "file", name, "err", err)
		return
	}
	note := invalidNote(name, time.Now(), reason)
	if err := dir.WriteFile(InvalidDir+"/"+name+noteSuffix, []byte(note), 0o644); err != nil {
		w.log.Warn("could not write why an event is invalid", "file", name, "err", err)
	}
	if err := dir.Rename(name, InvalidDir+"/"+name); err != nil && !errors.Is(err, fs.ErrNotExist) {
		w.log.Warn("could not move an invalid event aside", "file", name, "err", err)
	}
}

// later returns the later of two times.
func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
