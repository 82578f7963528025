package customtools

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// settle is how long the directories must be quiet before a change is applied: saving a file
// or building a binary is a burst of events, and a half-written manifest should not be loaded.
const settle = 200 * time.Millisecond

// watcher reports changes in the tool directories and in the folders inside them. fsnotify
// does not watch recursively, so each folder is added as it is found; files in deeper
// subdirectories are not watched (a folder's own files are what its fingerprint covers).
//
// A tool directory that does not exist yet (~/.config/mom/tools on a new machine) is awaited
// by watching its nearest existing ancestor, its anchor, so that creating it later is noticed
// without a restart. Only events on the way to a missing directory count there: the rest of a
// home directory's comings and goings are none of mom's business.
type watcher struct {
	fs      *fsnotify.Watcher
	dirs    []string
	log     *slog.Logger
	anchors map[string]bool // watched ancestors of missing directories
}

// newWatcher watches dirs (those that exist) and their folders, and the anchors of the rest.
func newWatcher(dirs []string, log *slog.Logger) (*watcher, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, err
	}
	w := &watcher{fs: fw, dirs: dirs, log: log, anchors: map[string]bool{}}
	w.addAll()
	return w, nil
}

// addAll watches every directory and folder, and an anchor for each missing directory; adding
// one already watched does nothing. Anchors no longer needed are dropped.
func (w *watcher) addAll() {
	anchors := map[string]bool{}
	for _, dir := range w.dirs {
		if err := w.fs.Add(dir); err != nil {
			if a := anchor(dir); a != "" && w.fs.Add(a) == nil {
				anchors[a] = true
			}
			continue
		}
		for _, s := range scanDirs([]string{dir}) {
			_ = w.fs.Add(s.path)
		}
	}
	for a := range w.anchors {
		if !anchors[a] && !w.isToolPath(a) {
			_ = w.fs.Remove(a)
		}
	}
	w.anchors = anchors
}

// anchor is the nearest existing ancestor directory of a missing dir, "" if there is none.
func anchor(dir string) string {
	for p := filepath.Dir(dir); ; p = filepath.Dir(p) {
		if info, err := os.Stat(p); err == nil && info.IsDir() {
			return p
		}
		if p == filepath.Dir(p) {
			return ""
		}
	}
}

// isToolPath reports whether path is a tool directory or one of its folders.
func (w *watcher) isToolPath(path string) bool {
	for _, dir := range w.dirs {
		if path == dir || filepath.Dir(path) == dir {
			return true
		}
	}
	return false
}

// matters reports whether an event can change the tools: anything in a tool directory or
// folder, and in an anchor only what lies on the way to a missing directory.
func (w *watcher) matters(name string) bool {
	if !w.anchors[filepath.Dir(name)] || w.isToolPath(filepath.Dir(name)) {
		return true
	}
	for _, dir := range w.dirs {
		if dir == name || strings.HasPrefix(dir, name+string(filepath.Separator)) {
			return true
		}
	}
	return false
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
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			if w.matters(ev.Name) {
				timer.Reset(settle)
			}
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
