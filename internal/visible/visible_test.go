package visible

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"plain **markdown**, `code`, émoji 👨‍👩‍👧 and עברית", "plain **markdown**, `code`, émoji 👨‍👩‍👧 and עברית"},
		{"two\nlines\twith a tab", "two\nlines\twith a tab"},
		{"windows\r\nline", "windows\r\nline"},
		{"progress\rfake", `progress\rfake`},
		{"ends in\r", `ends in\r`},
		{"\x1b[2J\x1b[Hclear", `\x1b[2J\x1b[Hclear`},
		{"\x1b]0;title\x07", `\x1b]0;title\x07`},
		{"\x1b]8;;https://evil\x1b\\link\x1b]8;;\x1b\\", `\x1b]8;;https://evil\x1b\link\x1b]8;;\x1b\`},
		{"nul\x00 bs\x08 del\x7f", `nul\x00 bs\x08 del\x7f`},
		{"c1 \u009b31m \u009d0;t\u009c", `c1 \u009b31m \u009d0;t\u009c`},
		{"raw \x9b31m byte", `raw \x9b31m byte`},
		{"admin\u202e\u2066txt.exe\u2069\u202a\u202c", `admin\u202e\u2066txt.exe\u2069\u202a\u202c`},
		{"line\u2028sep", `line\u2028sep`},
		{`C:\Users\x1b`, `C:\Users\x1b`},
		{"", ""},
	} {
		if got := Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestLine(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"report.txt", "report.txt"},
		{"two\nlines\tand\r\nmore", `two\nlines\tand\r\nmore`},
		{"name\x1b[8m", `name\x1b[8m`},
	} {
		if got := Line(tt.in); got != tt.want {
			t.Errorf("Line(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestNothingHiddenGetsThrough: whatever the input, the output is valid UTF-8 with no control
// character but the newlines, tabs and CRLFs Text keeps, and no bidi control at all.
func TestNothingHiddenGetsThrough(t *testing.T) {
	t.Parallel()
	var all strings.Builder
	for r := rune(0); r < 0x3000; r++ {
		all.WriteRune(r)
	}
	all.WriteString("\xff\xfe\xc2")
	for _, out := range []string{Text(all.String()), Line(all.String())} {
		if !utf8.ValidString(out) {
			t.Errorf("the output is not valid UTF-8")
		}
		for i, r := range out {
			crlf := r == '\r' && strings.HasPrefix(out[i:], "\r\n")
			keep := r == '\n' || r == '\t' || crlf
			if (r < 0x20 && !keep) || r >= 0x7f && r <= 0x9f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 {
				t.Errorf("%U got through at byte %d", r, i)
			}
		}
	}
	if l := Line("a\nb\tc\r\n"); strings.ContainsAny(l, "\n\t\r") {
		t.Errorf("Line kept a line break or tab: %q", l)
	}
}

func FuzzText(f *testing.F) {
	f.Add("a\x1b[31mb\u202ec\r\n")
	f.Fuzz(func(t *testing.T, s string) {
		out := Text(s)
		if !utf8.ValidString(out) || strings.ContainsRune(out, 0x1b) || strings.ContainsRune(out, 0x9b) || strings.ContainsRune(out, 0x202e) {
			t.Errorf("Text(%q) = %q", s, out)
		}
		if Text(out) != out {
			t.Errorf("Text is not stable on its own output: %q", out)
		}
	})
}
