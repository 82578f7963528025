package events

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
)

// Timing of the watcher, from the spec: a file is read 100 ms after it last changed, so a
// writer that writes in pieces is read once, whole; a file that does not parse is read again
// after 100, 200 and 400 ms before it is set aside.
const (
	debounce    = 100 * time.Millisecond
	parseTries  = 3
	firstRetry  = 100 * time.Millisecond
	maxTimerGap = time.Hour // long waits are re-checked hourly, so clock jumps cannot skew them
)

// InvalidDir is the folder, inside the events directory, where files that are not valid
// wake-ups are moved, each with a note saying why.
const InvalidDir = ".invalid"

// Waker runs a wake-up in a channel; the hub implements it. An error that has a QueueFull
// method reporting true (the hub's ErrQueueFull) means the channel has too many wake-ups
// waiting already: the wake-up is dropped. Any other error means it could not run now (mom is
// shutting down, the adapter is gone), and its file stays for next time.
type Waker interface {
	Wake(adapter, channelID string, trigger chat.Message, done func()) error
}

// queueFull reports whether err from Wake says the channel's queue of wake-ups is full. It
// asks the error what it is, so this package need not import the hub to recognize its error.
func queueFull(err error) bool {
	var full interface{ QueueFull() bool }
	return errors.As(err, &full) && full.QueueFull()
}

// Options configure a Watcher.
type Options struct {
	// Dir is the events directory, workspace/events. Commands write there, so every file
	// is reached through it, never following a link.
	Dir confined.Dir
	// Adapters are the configured adapter names, for checking channel ids.
	Adapters []string
	// Hub runs due wake-ups.
	Hub Waker
	// Log receives what happened to each file.
	Log *slog.Logger
	// Started is when mom started, before its adapters connected: an immediate wake-up file
	// older than it is stale. A file written while mom was connecting was meant for this mom,
	// and runs. Zero means when Start is called.
	Started time.Time
	// CatchUpWithin is how long after its time a one-shot wake-up found at start-up still
	// runs: one whose time passed while mom was down, at most this long ago, runs at once;
	// an older one is deleted unrun (config.json's "resume"). Zero deletes every one whose
	// time has passed.
	CatchUpWithin time.Duration
}

// Watcher schedules the wake-up files of one directory, the events directory.
type Watcher struct {
	opts  Options
	log   *slog.Logger
	start time.Time

	mu     sync.Mutex
	files  map[string]*entry
	closed bool

	fsw  *fsnotify.Watcher
	done chan struct{}
}

// entry is what the watcher knows about one file.
type entry struct {
	name     string
	read     *time.Timer // a pending read (debounce or parse retry)
	failures int
	timer    *time.Timer // the pending fire
	due      time.Time   // when the pending fire is due
	gen      int         // bumped on every change, so callbacks of an older version do nothing
	wake     WakeUp
	// atStart says the file was already there when mom started. Only such a file can be a
	// stale immediate wake-up: the kernel stamps files with a coarse clock, so the mtime of a
	// file written just after start may read as just before it.
	atStart bool
}

// NewWatcher returns a watcher; Start begins watching.
func NewWatcher(opts Options) *Watcher {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Watcher{opts: opts, log: log, files: make(map[string]*entry), done: make(chan struct{})}
}

// Start schedules the files already in the directory (creating it if needed) and watches it
// for changes until Stop. Immediate files older than Options.Started are stale and deleted unrun,
// one-shots whose time has passed are run if it passed within Options.CatchUpWithin and
// deleted unrun otherwise, and periodic wake-ups wait for their next
// time (missed runs are not caught up).
func (w *Watcher) Start(ctx context.Context) error {
	w.start = w.opts.Started
	if w.start.IsZero() {
		w.start = time.Now()
	}
	if err := w.opts.Dir.MkdirAll("", 0o755); err != nil {
		return fmt.Errorf("events directory: %w", err)
	}
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return fmt.Errorf("watching the events directory: %w", err)
	}
	if err := fsw.Add(w.opts.Dir.Path()); err != nil {
		fsw.Close()
		return fmt.Errorf("watching %s: %w", w.opts.Dir, err)
	}
	w.fsw = fsw
	go w.loop()
	names, err := w.opts.Dir.ReadDir("")
	if err != nil {
		return fmt.Errorf("reading %s: %w", w.opts.Dir, err)
	}
	for _, de := range names {
		// Not only regular files: a directory or a link named like a wake-up file is set
		// aside with a note, like any other file that is not a wake-up.
		if wakeUpFile(de.Name()) {
			w.changed(de.Name(), 0, true)
		}
	}
	return nil
}

// Stop stops watching and cancels every pending wake-up.
func (w *Watcher) Stop() {
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		return
	}
	w.closed = true
	for _, e := range w.files {
		e.cancel()
	}
	w.mu.Unlock()
	if w.fsw != nil {
		w.fsw.Close()
		<-w.done
	}
}

// loop turns file system notifications into reads and cancellations.
func (w *Watcher) loop() {
	defer close(w.done)
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			name := filepath.Base(ev.Name)
			if filepath.Dir(ev.Name) != w.opts.Dir.Path() || !wakeUpFile(name) {
				continue
			}
			if _, err := w.opts.Dir.Stat(name); errors.Is(err, fs.ErrNotExist) {
				w.removed(name)
				continue
			}
			w.changed(name, debounce, false)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			w.log.Warn("watching the events directory", "err", err)
		}
	}
}

// wakeUpFile says whether a name in the directory is a wake-up file: editors' swap and backup
// files and the .invalid folder are not.
func wakeUpFile(name string) bool {
	return strings.HasSuffix(name, ".json") && !strings.HasPrefix(name, ".")
}

// changed (re)reads a file after delay, replacing any read already pending. atStart marks
// files found by the first scan, the only ones that can be stale.
func (w *Watcher) changed(name string, delay time.Duration, atStart bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return
	}
	e := w.entryLocked(name)
	e.gen++
	e.failures = 0
	e.atStart = atStart
	if e.timer != nil {
		e.timer.Stop() // a change reschedules
		e.timer = nil
	}
	w.readLaterLocked(e, delay)
}

func (w *Watcher) entryLocked(name string) *entry {
	e := w.files[name]
	if e == nil {
		e = &entry{name: name}
		w.files[name] = e
	}
	return e
}

func (w *Watcher) readLaterLocked(e *entry, delay time.Duration) {
	if e.read != nil {
		e.read.Stop()
	}
	gen := e.gen
	e.read = time.AfterFunc(delay, func() { w.read(e.name, gen) })
}

// removed cancels whatever was pending for a file that is gone.
func (w *Watcher) removed(name string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if e := w.files[name]; e != nil {
		e.cancel()
		delete(w.files, name)
	}
}

func (e *entry) cancel() {
	e.gen++
	if e.read != nil {
		e.read.Stop()
	}
	if e.timer != nil {
		e.timer.Stop()
	}
}
