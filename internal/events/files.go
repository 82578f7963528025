package events

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
)

// readFile reads the wake-up file name in dir with its metadata. Only a regular file of at
// most MaxFileSize bytes is read; anything else is refused with an error that matches
// confined.ErrRefused and says what the file is.
func readFile(dir confined.Dir, name string) ([]byte, fs.FileInfo, error) {
	f, err := dir.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	if info.Size() > MaxFileSize {
		return nil, nil, tooLarge(name, info.Size())
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read %s: %w", name, err)
	}
	if len(data) > MaxFileSize {
		return nil, nil, tooLarge(name, int64(len(data)))
	}
	return data, info, nil
}

func tooLarge(name string, size int64) error {
	return &confined.RefusedError{Path: name, Reason: fmt.Sprintf("is %d bytes; an event file may have at most %d", size, MaxFileSize)}
}

// Listed is one file of the events directory as List finds it: a valid WakeUp, or the error
// that makes it none.
type Listed struct {
	Name   string
	WakeUp WakeUp
	Err    error
}

// List reads every wake-up file in the events directory dir (named like one: *.json, not
// hidden), in name order, for `mom events` and the web chat. adapters are the configured
// adapter names, for checking channel ids. A directory that does not exist lists nothing.
func List(dir confined.Dir, adapters []string) ([]Listed, error) {
	entries, err := dir.ReadDir("")
	if err != nil && !isNotExist(err) {
		return nil, err
	}
	var out []Listed
	for _, de := range entries {
		name := de.Name()
		if !wakeUpFile(name) {
			continue
		}
		l := Listed{Name: name}
		var data []byte
		if data, _, l.Err = readFile(dir, name); l.Err == nil {
			l.WakeUp, l.Err = Parse(name, data, adapters)
		}
		out = append(out, l)
	}
	return out, nil
}

// SetAside is a file moved into InvalidDir, with the reason its note gives ("" without one).
type SetAside struct {
	File   string // its name in InvalidDir
	Reason string
}

// maxNote is the most of a note ListSetAside reads; the watcher writes a few lines.
const maxNote = 16 << 10

// ListSetAside lists the files set aside in the events directory dir, by name.
func ListSetAside(dir confined.Dir) []SetAside {
	entries, _ := dir.ReadDir(InvalidDir) // none set aside yet
	var out []SetAside
	for _, de := range entries {
		name := de.Name()
		if !strings.HasSuffix(name, ".json") {
			continue
		}
		s := SetAside{File: name}
		if note, err := dir.ReadFile(InvalidDir+"/"+name+noteSuffix, maxNote); err == nil {
			_, rest, _ := strings.Cut(strings.TrimSpace(string(note)), "\n")
			s.Reason = strings.TrimSpace(rest)
		}
		out = append(out, s)
	}
	slices.SortFunc(out, func(a, b SetAside) int { return strings.Compare(a.File, b.File) })
	return out
}

func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }
