package events

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A file that is not a valid event is moved into InvalidDir beside a note, <file>.error.txt,
// whose first line says when and whose rest says why. The watcher writes the notes; mom
// events and the web chat read them back with ListSetAside.

// noteSuffix ends the name of a set-aside file's note.
const noteSuffix = ".error.txt"

// invalidNote is the note written beside a file set aside at t for reason.
func invalidNote(name string, t time.Time, reason error) string {
	return fmt.Sprintf("%s was moved here on %s because it is not a valid event:\n%v\n", name, t.Format(time.RFC3339), reason)
}

// SetAside is a file moved into InvalidDir, with the reason its note gives ("" without one).
type SetAside struct {
	File   string // its name in InvalidDir
	Reason string
}

// ListSetAside lists the files set aside in the events directory dir, by name.
func ListSetAside(dir string) []SetAside {
	entries, _ := os.ReadDir(filepath.Join(dir, InvalidDir)) // none set aside yet
	var out []SetAside
	for _, de := range entries {
		name := de.Name()
		if !strings.HasSuffix(name, ".json") || !de.Type().IsRegular() {
			continue
		}
		s := SetAside{File: name}
		if note, err := os.ReadFile(filepath.Join(dir, InvalidDir, name+noteSuffix)); err == nil {
			_, rest, _ := strings.Cut(strings.TrimSpace(string(note)), "\n")
			s.Reason = strings.TrimSpace(rest)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b SetAside) int { return strings.Compare(a.File, b.File) })
	return out
}
