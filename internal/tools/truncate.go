package tools

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// The output limits of bash and read (pi's DEFAULT_MAX_LINES and DEFAULT_MAX_BYTES): what a
// single tool result may put into the model's context.
const (
	maxOutputLines = 2000
	maxOutputBytes = 50 * 1024
)

// The values of Truncation.TruncatedBy.
const (
	byLines = "lines"
	byBytes = "bytes"
)

// Truncation says how a tool's output was cut to fit the limits, in the shape of pi's
// TruncationResult (minus the content itself, which is already in the result). Tools put it in
// their Details so people and logs can see what the model did not. The totals are of the whole
// command output, or for read of the whole file.
type Truncation struct {
	Truncated bool `json:"truncated"`
	// TruncatedBy is "lines" or "bytes": the limit that was hit first.
	TruncatedBy string `json:"truncatedBy,omitempty"`
	TotalLines  int    `json:"totalLines"`
	TotalBytes  int    `json:"totalBytes"`
	OutputLines int    `json:"outputLines"`
	OutputBytes int    `json:"outputBytes"`
	// LastLinePartial is set when a tail cut had to keep only the end of one huge last line.
	LastLinePartial bool `json:"lastLinePartial"`
	// FirstLineExceedsLimit is set when a head cut could not keep even the first line.
	FirstLineExceedsLimit bool `json:"firstLineExceedsLimit"`
	MaxLines              int  `json:"maxLines"`
	MaxBytes              int  `json:"maxBytes"`
}

// countLines counts lines the way people do: a final newline ends the last line rather than
// starting an empty one, so "a\nb\n" and "a\nb" both have two lines and "" has none.
func countLines(s string) int {
	n := strings.Count(s, "\n")
	if s != "" && s[len(s)-1] != '\n' {
		n++
	}
	return n
}

// truncateHead keeps the first lines of content that fit in maxLines lines and maxBytes bytes
// (counting the newlines between them), for read: the model continues with an offset. It never
// returns a partial line; when the first line alone is too big it returns nothing and says so.
func truncateHead(content string, maxLines, maxBytes int) (string, Truncation) {
	t := Truncation{
		TotalLines: countLines(content), TotalBytes: len(content),
		MaxLines: maxLines, MaxBytes: maxBytes,
	}
	if t.TotalLines <= maxLines && t.TotalBytes <= maxBytes {
		t.OutputLines, t.OutputBytes = t.TotalLines, t.TotalBytes
		return content, t
	}
	h := headLimit{maxLines: maxLines, maxBytes: maxBytes}
	end := 0
	for rest := content; rest != ""; {
		line, after, _ := strings.Cut(rest, "\n")
		if !h.add(len(line)) {
			break
		}
		end = len(content) - len(rest) + len(line)
		rest = after
	}
	h.fill(&t)
	return content[:end], t
}

// headLimit decides, line by line, how much of a text truncateHead keeps. read feeds it lines
// as it streams a file, so a huge file is cut without being loaded.
type headLimit struct {
	maxLines, maxBytes int
	lines, bytes       int // kept so far; bytes include the newlines between lines
	by                 string
	firstTooLong       bool
}

// add reports whether a line of n bytes still fits. After the first line that does not fit it
// keeps refusing, so the kept lines stay contiguous.
func (h *headLimit) add(n int) bool {
	if h.by != "" {
		return false
	}
	if h.lines >= h.maxLines {
		h.by = byLines
		return false
	}
	need := n
	if h.lines > 0 {
		need++
	}
	if h.bytes+need > h.maxBytes {
		h.by = byBytes
		h.firstTooLong = h.lines == 0
		return false
	}
	h.lines++
	h.bytes += need
	return true
}

// truncated reports whether some line was refused.
func (h *headLimit) truncated() bool { return h.by != "" }

// fill copies the outcome into t.
func (h *headLimit) fill(t *Truncation) {
	t.Truncated = h.truncated()
	t.TruncatedBy = h.by
	t.OutputLines, t.OutputBytes = h.lines, h.bytes
	t.FirstLineExceedsLimit = h.firstTooLong
}

// truncateTail keeps the last lines of content that fit in maxLines lines and maxBytes bytes,
// for command output, where the end (the error, the summary) matters most. It never returns a
// partial line, except when the last line alone is over maxBytes: then it keeps that line's
// end, cut at a UTF-8 boundary.
func truncateTail(content string, maxLines, maxBytes int) (string, Truncation) {
	t := Truncation{
		TotalLines: countLines(content), TotalBytes: len(content),
		MaxLines: maxLines, MaxBytes: maxBytes,
	}
	if t.TotalLines <= maxLines && t.TotalBytes <= maxBytes {
		t.OutputLines, t.OutputBytes = t.TotalLines, t.TotalBytes
		return content, t
	}
	start, lines, partial, by := tailCut(content, maxLines, maxBytes)
	t.Truncated, t.TruncatedBy = true, by
	t.OutputLines, t.OutputBytes, t.LastLinePartial = lines, len(content)-start, partial
	return content[start:], t
}

// tailCut finds where the kept tail of s starts. s may itself be only the end of a longer
// output, as long as it is longer than maxBytes: then no line that starts before s can fit, so
// the answer is the same as for the whole output.
func tailCut(s string, maxLines, maxBytes int) (start, lines int, partial bool, by string) {
	pos := len(s) // end of the content of the line being considered
	if pos > 0 && s[pos-1] == '\n' {
		pos--
	}
	start, by = len(s), byLines
	for lines < maxLines {
		lineStart := strings.LastIndexByte(s[:pos], '\n') + 1
		if len(s)-lineStart > maxBytes {
			by = byBytes
			if lines == 0 {
				start = len(s) - maxBytes
				for start < len(s) && !utf8.RuneStart(s[start]) {
					start++
				}
				lines, partial = 1, true
			}
			break
		}
		start = lineStart
		lines++
		if lineStart == 0 {
			break
		}
		pos = lineStart - 1
	}
	return start, lines, partial, by
}

// formatSize prints a byte count as pi does: B below 1 KB, else KB or MB with one decimal,
// halves rounded up like JavaScript's toFixed.
func formatSize(n int) string {
	const kb, mb = 1024, 1024 * 1024
	switch {
	case n < kb:
		return fmt.Sprintf("%dB", n)
	case n < mb:
		tenths := (n*10 + kb/2) / kb
		return fmt.Sprintf("%d.%dKB", tenths/10, tenths%10)
	default:
		tenths := (n*10 + mb/2) / mb
		return fmt.Sprintf("%d.%dMB", tenths/10, tenths%10)
	}
}
