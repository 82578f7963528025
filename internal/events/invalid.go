package events

import (
	"fmt"
	"time"
)

// A file that is not a valid wake-up is moved into InvalidDir beside a note, <file>.error.txt,
// whose first line says when and whose rest says why. The watcher writes the notes; mom
// events and the web chat read them back with ListSetAside.

// noteSuffix ends the name of a set-aside file's note.
const noteSuffix = ".error.txt"

// invalidNote is the note written beside a file set aside at t for reason.
func invalidNote(name string, t time.Time, reason error) string {
	return fmt.Sprintf("%s was moved here on %s because it is not a valid event:\n%v\n", name, t.Format(time.RFC3339), reason)
}
