package chat

import (
	"strings"
	"time"
)

// TranscriptLine formats one message for a plain-text transcript, the way the original mom's
// --download printed channels: "[2006-01-02 15:04:05] who: text", with the lines of a
// multi-line message aligned under the first, and indent (two spaces for a thread reply)
// before every line.
func TranscriptLine(ts time.Time, who, text, indent string) string {
	head := indent + "[" + ts.Local().Format("2006-01-02 15:04:05") + "] " + who + ": "
	pad := "\n" + indent + strings.Repeat(" ", len([]rune(head))-len([]rune(indent)))
	return head + strings.ReplaceAll(strings.TrimRight(text, "\n"), "\n", pad) + "\n"
}
