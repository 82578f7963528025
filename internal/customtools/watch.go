package customtools

import (
	"context"
	"log/slog"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the directories must be quiet before a change is applied: saving a file
// or building a binary is a burst of events, and a half-written manifest should not be loaded.
const settle = 200 * time.Millisecond

// watcher reports changes in the tool directories and in the folders inside them. fsnotify
// does not watch recursively, so each folder is added as it is found; files in deeper
// subdirectories are not watched (a folder's own files are what its fingerprint covers).
type watcher struct {
	fs   *fsnotify.Watcher
	dirs []string
	log  *slog.Logger
}

// newWatcher watches dirs (those that exist) and their folders.
func newWatcher(dirs []string, log *slog.Logger) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{fs: fw, dirs: dirs, log: log}
	w.addAll()
	return w, nil
}

// addAll watches every directory and folder; adding one already watched does nothing.
func (w *watcher) addAll() {
	for _, dir := range w.dirs {
		if err := w.fs.Add(dir); err != nil {
			continue // missing: it has no tools
		}
		for _, s := range scanDirs([]string{dir}) {
			_ = w.fs.Add(s.path)
		}
	}
}

// run calls rescan after every settled burst of changes, until ctx ends.
func (w *watcher) run(ctx context.Context, rescan func()) {
	defer w.fs.Close()
	timer := time.NewTimer(settle)
	timer.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case _, ok := <-w.fs.Events:
			if !ok {
				return
			}
			timer.Reset(settle)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			// Events were lost (an overflow): rescan to be sure nothing was missed.
			w.log.Warn("watching the custom tools directories", "err", err)
			timer.Reset(settle)
		case <-timer.C:
			w.addAll()
			rescan()
		}
	}
}
