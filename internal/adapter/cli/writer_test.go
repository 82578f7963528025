package cli

import (
	"strings"
	"testing"
)

// TestWriterColoursOnlyWhatItEscaped: on a terminal, the writer's own colours are the only
// escape sequences that reach it; text it is given shows its controls as escapes, keeping
// its lines.
func TestWriterColoursOnlyWhatItEscaped(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	w := &writer{w: &out, color: true}
	w.write(plain, "streamed \x1b]0;pwned\x07 ")
	w.write(plain, "**answer**\nnext line\u202e")
	w.line(red, "  ✗ \x1b[2Jfailed\rforged")
	w.line(plain, "")
	want := "streamed \\x1b]0;pwned\\x07 **answer**\nnext line\\u202e\n" +
		"\x1b[31m  ✗ \\x1b[2Jfailed\\rforged\x1b[0m\n\n"
	if out.String() != want {
		t.Errorf("wrote\n%q\nwant\n%q", out.String(), want)
	}
}
