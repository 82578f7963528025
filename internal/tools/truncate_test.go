package tools

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFormatSize(t *testing.T) {
	for n, want := range map[int]string{
		0: "0B", 1023: "1023B", 1024: "1.0KB", 1280: "1.3KB", 1331: "1.3KB", 51200: "50.0KB",
		1048575: "1024.0KB", 1048576: "1.0MB", 5 * 1024 * 1024: "5.0MB", 1572864: "1.5MB",
	} {
		if got := formatSize(n); got != want {
			t.Errorf("formatSize(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCountLines(t *testing.T) {
	for s, want := range map[string]int{"": 0, "a": 1, "a\n": 1, "a\nb": 2, "a\nb\n": 2, "\n": 1, "\n\n": 2, "a\r\nb\r\n": 2} {
		if got := countLines(s); got != want {
			t.Errorf("countLines(%q) = %d, want %d", s, got, want)
		}
	}
}

func TestTruncateHead(t *testing.T) {
	t.Run("fits", func(t *testing.T) {
		got, tr := truncateHead("a\nb\n", 2, 100)
		if got != "a\nb\n" || tr.Truncated || tr.TotalLines != 2 || tr.OutputLines != 2 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("lines", func(t *testing.T) {
		got, tr := truncateHead("1\n2\n3\n4\n", 2, 100)
		if got != "1\n2" || !tr.Truncated || tr.TruncatedBy != "lines" || tr.OutputLines != 2 || tr.TotalLines != 4 || tr.OutputBytes != 3 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		// "aaa\nbbb" is 7 bytes; adding "\nccc" would make 11.
		got, tr := truncateHead("aaa\nbbb\nccc\n", 10, 10)
		if got != "aaa\nbbb" || tr.TruncatedBy != "bytes" || tr.OutputLines != 2 || tr.OutputBytes != 7 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("every line fits but the final newline", func(t *testing.T) {
		// All three lines are kept, so nothing the model needs is missing: not truncated.
		got, tr := truncateHead("aaa\nbbb\nccc\n", 10, 11)
		if got != "aaa\nbbb\nccc" || tr.OutputBytes != 11 || tr.Truncated {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("first line too long", func(t *testing.T) {
		got, tr := truncateHead(strings.Repeat("x", 20)+"\nshort\n", 10, 10)
		if got != "" || !tr.FirstLineExceedsLimit || tr.TruncatedBy != "bytes" || tr.OutputLines != 0 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("crlf", func(t *testing.T) {
		// Lines keep their \r, and it counts toward the byte limit.
		got, tr := truncateHead("ab\r\ncd\r\nef\r\n", 10, 8)
		if got != "ab\r\ncd\r" || tr.OutputLines != 2 || tr.OutputBytes != 7 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("multibyte lines stay whole", func(t *testing.T) {
		got, _ := truncateHead("ééé\nééé\n", 10, 9)
		if got != "ééé" {
			t.Errorf("%q", got)
		}
	})
}

func TestTruncateTail(t *testing.T) {
	t.Run("fits", func(t *testing.T) {
		got, tr := truncateTail("a\nb\n", 2, 100)
		if got != "a\nb\n" || tr.Truncated {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("lines", func(t *testing.T) {
		got, tr := truncateTail("1\n2\n3\n4\n", 2, 100)
		if got != "3\n4\n" || tr.TruncatedBy != "lines" || tr.OutputLines != 2 || tr.TotalLines != 4 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("lines without final newline", func(t *testing.T) {
		got, tr := truncateTail("1\n2\n3\n4", 2, 100)
		if got != "3\n4" || tr.OutputLines != 2 || tr.TotalLines != 4 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("bytes", func(t *testing.T) {
		got, tr := truncateTail("aaa\nbbb\nccc\n", 10, 9)
		if got != "bbb\nccc\n" || tr.TruncatedBy != "bytes" || tr.OutputLines != 2 || tr.OutputBytes != 8 {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("partial last line", func(t *testing.T) {
		got, tr := truncateTail("first\n"+strings.Repeat("x", 20), 10, 8)
		if got != "xxxxxxxx" || !tr.LastLinePartial || tr.OutputLines != 1 || tr.TruncatedBy != "bytes" {
			t.Errorf("%q %+v", got, tr)
		}
	})
	t.Run("partial line cut at a rune boundary", func(t *testing.T) {
		// 2-byte runes: keeping the last 7 bytes would start inside a rune, so 6 are kept.
		got, tr := truncateTail(strings.Repeat("é", 10), 10, 7)
		if got != "ééé" || tr.OutputBytes != 6 || !utf8.ValidString(got) {
			t.Errorf("%q %+v", got, tr)
		}
		// 4-byte runes.
		got, _ = truncateTail(strings.Repeat("😀", 10), 10, 10)
		if got != "😀😀" {
			t.Errorf("%q", got)
		}
	})
	t.Run("crlf", func(t *testing.T) {
		got, tr := truncateTail("ab\r\ncd\r\nef\r\n", 2, 100)
		if got != "cd\r\nef\r\n" || tr.OutputLines != 2 {
			t.Errorf("%q %+v", got, tr)
		}
	})
}

// TestTailCutOnWindow checks the property the bash output sink relies on: cutting only the
// last tailKeep bytes of an output gives the same tail as cutting the whole output.
func TestTailCutOnWindow(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 200 {
		var b strings.Builder
		for b.Len() < 3*tailKeep {
			n := r.IntN(200)
			if r.IntN(50) == 0 {
				n = r.IntN(3 * maxOutputBytes)
			}
			b.WriteString(strings.Repeat("é", n/2))
			if r.IntN(10) != 0 {
				b.WriteByte('\n')
			}
		}
		whole := b.String()
		want, wt := truncateTail(whole, maxOutputLines, maxOutputBytes)
		window := whole[len(whole)-tailKeep:]
		start, lines, partial, by := tailCut(window, maxOutputLines, maxOutputBytes)
		if got := window[start:]; got != want || lines != wt.OutputLines || partial != wt.LastLinePartial || by != wt.TruncatedBy {
			t.Fatalf("case %d: window cut differs: %d bytes/%d lines/%v/%s, want %d/%d/%v/%s",
				i, len(got), lines, partial, by, len(want), wt.OutputLines, wt.LastLinePartial, wt.TruncatedBy)
		}
	}
}

func BenchmarkTruncateTail1MB(b *testing.B) {
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("a line of output from some build step, about eighty bytes long........\n")
	}
	s := sb.String()
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		truncateTail(s, maxOutputLines, maxOutputBytes)
	}
}
