package chat

import (
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/visible"
)

// TranscriptLine formats one message for a plain-text transcript, the way the original mom's
// --download printed channels: "[2006-01-02 15:04:05] who: text", with the lines of a
// multi-line message aligned under the first, and indent (two spaces for a thread reply)
// before every line. Names and text are people's, so their terminal controls are shown as
// escapes (see package visible): a transcript, printed now or read with cat later, cannot
// rewrite the terminal.
func TranscriptLine(ts time.Time, who, text, indent string) string {
	head := indent + "[" + ts.Local().Format("2006-01-02 15:04:05") + "] " + visible.Line(who) + ": "
	pad := "\n" + indent + strings.Repeat(" ", len([]rune(head))-len([]rune(indent)))
	return head + strings.ReplaceAll(visible.Text(strings.TrimRight(text, "\n")), "\n", pad) + "\n"
}
