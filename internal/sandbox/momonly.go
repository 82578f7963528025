package sandbox

import (
	"fmt"
	"path/filepath"
)

// momOnlyFiles are the files of a channel directory that only mom writes: the channel's
// permanent history and the model's context. A command that could write them could put
// words in people's mouths for every later run, so the bwrap sandbox mounts them read-only
// and the file tools of every executor refuse to write them. Reading them stays allowed:
// the agent is told to query its history with jq.
var momOnlyFiles = [...]string{"log.jsonl", "context.jsonl"}

// momOnlyWhat says what the mom-only file name is, in an error's words; "" when it is none.
func momOnlyWhat(name string) string {
	switch name {
	case "log.jsonl":
		return "the channel's history"
	case "context.jsonl":
		return "the model's context for the channel"
	}
	return ""
}

// momOnlyError says that the file tools were asked to write a file only mom writes.
type momOnlyError struct {
	path string // as the tool was given it
	name string // log.jsonl or context.jsonl
}

func (e *momOnlyError) Error() string {
	return fmt.Sprintf("%s is %s (%s), which only mom writes; it can be read but not written, edited or replaced", e.path, momOnlyWhat(e.name), e.name)
}

// checkMomOnly refuses rel, a path relative to the workspace with its links followed, when it
// is a mom-only file of a channel directory. path is how the caller named it, for the error.
func checkMomOnly(path, rel string) error {
	name := filepath.Base(rel)
	if momOnlyWhat(name) == "" || channelKey(rel) != filepath.Dir(rel) {
		return nil
	}
	return &momOnlyError{path: path, name: name}
}
