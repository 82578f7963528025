package web

import (
	"fmt"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/events"
)

// wakeUpSettle is how long workspace/events must be quiet before the browsers are told it
// changed: the debounce of events.Watcher, so a file written in pieces, or a burst of files,
// is one reload of the side bar.
const wakeUpSettle = 100 * time.Millisecond

// wakeUpWatch tells every browser when workspace/events changes (a file added, edited,
// deleted, fired and removed, or set aside as invalid), with an "events" frame; the page then
// reloads the list. A periodic wake-up's next time passing changes no file: the page reloads
// the list then by itself.
type wakeUpWatch struct {
	fsw  *fsnotify.Watcher
	done chan struct{}
}

// watchWakeUps starts watching workspace/events and the folder of invalid files in it.
func (a *Adapter) watchWakeUps() (*wakeUpWatch, error) {
	evDir := a.wakeUpDir()
	if err := evDir.MkdirAll("", 0o755); err != nil {
		return nil, fmt.Errorf("the events directory: %w", err)
	}
	dir := evDir.Path()
	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watching the events directory: %w", err)
	}
	if err := fsw.Add(dir); err != nil {
		fsw.Close()
		return nil, fmt.Errorf("watching %s: %w", dir, err)
	}
	w := &wakeUpWatch{fsw: fsw, done: make(chan struct{})}
	a.watchInvalid(w, evDir) // absent until the first invalid file; added when it appears
	go a.announceWakeUps(w, evDir)
	return w, nil
}

// watchInvalid adds the folder of invalid wake-ups to the watch when it is a real directory:
// a link a command put there is not followed, not even to watch it.
func (a *Adapter) watchInvalid(w *wakeUpWatch, evDir confined.Dir) {
	if fi, err := evDir.Stat(events.InvalidDir); err != nil || !fi.IsDir() {
		return
	}
	invalid := evDir.Join(events.InvalidDir).Path()
	if err := w.fsw.Add(invalid); err != nil {
		a.log.Warn("could not watch the invalid events", "dir", invalid, "err", err)
	}
}

// announceWakeUps sends an "events" frame once the directory has settled after changes.
func (a *Adapter) announceWakeUps(w *wakeUpWatch, evDir confined.Dir) {
	invalid := evDir.Join(events.InvalidDir).Path()
	defer close(w.done)
	// Armed (and re-armed) by each change; it fires once the directory has been quiet.
	settled := time.AfterFunc(time.Hour, func() { a.live.broadcast(frame{Type: "events"}) })
	settled.Stop()
	defer settled.Stop()
	for {
		select {
		case ev, ok := <-w.fsw.Events:
			if !ok {
				return
			}
			if ev.Name == invalid && ev.Has(fsnotify.Create) {
				a.watchInvalid(w, evDir)
			}
			settled.Reset(wakeUpSettle)
		case err, ok := <-w.fsw.Errors:
			if !ok {
				return
			}
			a.log.Warn("watching the events directory", "err", err)
		}
	}
}

// stop stops watching and waits for the watch to end.
func (w *wakeUpWatch) stop() {
	w.fsw.Close()
	<-w.done
}
