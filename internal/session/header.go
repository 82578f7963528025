package session

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/mom-agent/mom/internal/confined"
)

// Version is the session format version this package reads and writes.
const Version = 3

// Header is the first line of a session file.
type Header struct {
	Type      string `json:"type"` // always "session"
	Version   int    `json:"version"`
	ID        string `json:"id"`        // a UUID
	Timestamp string `json:"timestamp"` // ISO 8601, UTC
	Cwd       string `json:"cwd"`
	// ParentSession is the path of the session this one was forked from; pi sets it, mom
	// never does.
	ParentSession string `json:"parentSession,omitempty"`
}

// headerProblem says why a first line is not a usable header, as the suffix of the backup the
// file is moved to: "broken" for anything that is not a session header, "v1"/"v2"/… for a
// header of another version (pi would migrate it; mom does not).
func headerProblem(line []byte) (Header, string) {
	var h Header
	if json.Unmarshal(line, &h) != nil || h.Type != "session" || h.ID == "" {
		return h, "broken"
	}
	if h.Version != Version {
		v := h.Version
		if v == 0 {
			v = 1 // v1 headers have no version key
		}
		return h, fmt.Sprintf("v%d", v)
	}
	return h, ""
}

// createFile writes a new session file holding only a header. The header goes to a temporary
// file that is synced and then renamed into place, so a crash leaves either no file or a whole
// header, never a torn one (which would make pi wipe the file).
func createFile(dir confined.Dir, name, cwd string, now time.Time) (Header, error) {
	h := Header{Type: "session", Version: Version, ID: newUUID(), Timestamp: formatTime(now), Cwd: cwd}
	line, err := json.Marshal(h)
	if err == nil {
		err = dir.WriteFile(name, append(line, '\n'), 0o644)
	}
	if err != nil {
		return Header{}, fmt.Errorf("create %s: %w", name, err)
	}
	return h, nil
}

// moveAside renames a file mom cannot use to <name>.<why>-<UTC time>, adding -2, -3 … if that
// name is taken, and returns the new path. Nothing is deleted.
func moveAside(dir confined.Dir, name, why string, now time.Time) (string, error) {
	base := fmt.Sprintf("%s.%s-%s", name, why, now.UTC().Format("20060102T150405.000Z"))
	backup := base
	for n := 2; ; n++ {
		if _, err := dir.Stat(backup); errors.Is(err, fs.ErrNotExist) {
			break
		}
		backup = fmt.Sprintf("%s-%d", base, n)
	}
	if err := dir.Rename(name, backup); err != nil {
		return "", fmt.Errorf("move unreadable session %s aside: %w", name, err)
	}
	return filepath.Join(dir.Path(), filepath.FromSlash(backup)), nil
}
