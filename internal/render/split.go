// This file cuts rendered text into parts that fit a platform's message length limit.

package render

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Split cuts text (already in the platform's markup) into ordered parts of at most max
// characters (runes) each, for platforms that limit how long a message may be.
//
// It cuts at the latest blank line in the second half of the room a part has, else at
// the latest line break there, else at the latest space there, else at the latest
// space or line break anywhere, else anywhere (never inside a UTF-8 sequence). It never
// cuts inside a <...> span (a link or mention) or a ``` fence line unless that span
// alone is longer than max/2, in which case it may cut it anywhere; and it cuts inside
// an inline `code` span only when the alternative is a part less than half full.
//
// A line starting with ``` opens or closes a code block. A part that ends inside one is
// closed with a "```" line and the next part reopens it with the opening fence line (or
// a bare ``` when that line is long), so each part renders on its own; those added
// lines count toward max. A max below 16 leaves no room for them, so then fences are
// left where they fall.
//
// The spaces and line breaks at a cut are dropped (as is a run of them too long to share
// a part with any text); every other character of text appears exactly once, in order.
// Split returns nil for text that is empty or only whitespace, and never an empty part.
// A max below 1 counts as 1.
func Split(text string, max int) []string {
	if !hasNonSpace(text) {
		return nil
	}
	if max < 1 {
		max = 1
	}
	s := newSplitter(text, max)
	var parts []string
	reopen := "" // fence line that reopens the code block the last cut went through
	for pos := 0; pos < len(text); {
		prefix := ""
		if reopen != "" {
			prefix = reopen + "\n"
		}
		room := max - utf8.RuneCountInString(prefix)
		if advanceRunes(text, pos, room) == len(text) {
			return append(parts, prefix+text[pos:])
		}
		if !hasNonSpace(text[pos:advanceRunes(text, pos, s.least(room))]) {
			// Nothing but (say) indentation fits: it is whitespace at a cut, so drop it.
			pos = len(text) - len(strings.TrimLeft(text[pos:], " \t\r\n"))
			continue
		}
		part, next, open := s.part(pos, room)
		if open != nil {
			part += "\n```"
			reopen = s.reopenLine(open)
		} else {
			reopen = ""
		}
		parts = append(parts, prefix+part)
		pos = next
	}
	return parts
}

// fenceCloseLen is the length of what closes a code block at a cut: "\n```".
const fenceCloseLen = len("\n```")

// keepSpan is a range of text, by byte offset, that should not be cut: [start, end).
type keepSpan struct{ start, end int }

// fenceLine is a line starting with ```.
type fenceLine struct {
	keepSpan
	opens bool // it opens a code block, rather than closing one
}

// splitter holds what Split learns about text before it cuts anything.
type splitter struct {
	text   string
	max    int
	repair bool        // whether there is room to close and reopen code blocks at cuts
	hard   []keepSpan  // never cut inside these: <...> spans and fence lines up to max/2
	soft   []keepSpan  // inline code spans: cut inside only when nothing else fits
	fences []fenceLine // in order
}

func newSplitter(text string, max int) *splitter {
	s := &splitter{text: text, max: max, repair: 2*len("```\n\n```") <= max}
	open := false
	for start := 0; start < len(text); {
		end := strings.IndexByte(text[start:], '\n')
		if end < 0 {
			end = len(text)
		} else {
			end += start
		}
		if strings.HasPrefix(text[start:end], "```") {
			open = !open
			s.fences = append(s.fences, fenceLine{keepSpan{start, end}, open})
			s.protect(&s.hard, start, end)
		} else {
			s.scanLine(start, end, open)
		}
		start = end + 1
	}
	s.hard = mergeSpans(s.hard)
	return s
}

// scanLine finds the <...> spans on the line text[start:end], and its `code` spans when
// it is not inside a code block.
func (s *splitter) scanLine(start, end int, inCode bool) {
	t := s.text
	for i := start; i < end; i++ {
		switch t[i] {
		case '<':
			if j := strings.IndexAny(t[i+1:end], "<>"); j >= 0 && t[i+1+j] == '>' {
				s.protect(&s.hard, i, i+j+2)
				i += j + 1
			}
		case '`':
			if inCode {
				continue
			}
			if j := strings.IndexByte(t[i+1:end], '`'); j >= 0 {
				s.protect(&s.soft, i, i+j+2)
				i += j + 1
			}
		}
	}
}

// protect adds [start, end) to spans unless it is longer than max/2: a span that long
// would leave too little room around it, so it may be cut anywhere.
func (s *splitter) protect(spans *[]keepSpan, start, end int) {
	if utf8.RuneCountInString(s.text[start:end]) <= s.max/2 {
		*spans = append(*spans, keepSpan{start, end})
	}
}

// mergeSpans sorts spans and joins those that overlap, so a binary search can find the one
// around an offset.
func mergeSpans(spans []keepSpan) []keepSpan {
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	var out []keepSpan
	for _, sp := range spans {
		if n := len(out); n > 0 && sp.start < out[n-1].end {
			out[n-1].end = max(out[n-1].end, sp.end)
			continue
		}
		out = append(out, sp)
	}
	return out
}

// spanAt returns the span that strictly contains offset c, if any.
func spanAt(spans []keepSpan, c int) (keepSpan, bool) {
	i := sort.Search(len(spans), func(i int) bool { return spans[i].start >= c })
	if i > 0 && c < spans[i-1].end {
		return spans[i-1], true
	}
	return keepSpan{}, false
}

// openFence returns the fence line that opened the code block a cut at c falls in, or
// nil when c is outside code blocks or there is no room to reopen them.
func (s *splitter) openFence(c int) *fenceLine {
	if !s.repair {
		return nil
	}
	i := sort.Search(len(s.fences), func(i int) bool { return s.fences[i].start >= c }) - 1
	if i < 0 || c < s.fences[i].end || !s.fences[i].opens {
		// Before any fence, after a closing one, or (only when forced) inside a fence
		// line: the block, if any, has not begun in this part.
		return nil
	}
	return &s.fences[i]
}

// reopenLine repeats the fence line f, or is a bare ``` when f is too long to repeat
// in every part.
func (s *splitter) reopenLine(f *fenceLine) string {
	l := strings.TrimRight(s.text[f.start:f.end], " \t\r")
	if 2*(utf8.RuneCountInString(l)+1+fenceCloseLen) > s.max {
		return "```"
	}
	return l
}

// part picks the cut for the part that starts at pos and may hold room runes. It returns
// the part's text, where the next part starts, and the fence to close and reopen if the
// cut falls inside a code block.
func (s *splitter) part(pos, room int) (string, int, *fenceLine) {
	c, next := s.cut(pos, room)
	f := s.openFence(c)
	if f != nil && utf8.RuneCountInString(s.trimmed(pos, c))+fenceCloseLen > room {
		c, next = s.cut(pos, room-fenceCloseLen) // make room for the closing fence
		f = s.openFence(c)
	}
	return s.trimmed(pos, c), next, f
}

// least is the room a part surely has left for text: room, less what closes a code
// block if the part may have to.
func (s *splitter) least(room int) int {
	if s.repair {
		return room - fenceCloseLen
	}
	return room
}

// trimmed is text[pos:c] without the whitespace at its end, which the cut drops.
func (s *splitter) trimmed(pos, c int) string {
	return strings.TrimRight(s.text[pos:c], " \t\r\n")
}

// cut chooses where the part starting at pos ends (c) and where the next begins (next).
func (s *splitter) cut(pos, room int) (c, next int) {
	limit := advanceRunes(s.text, pos, room)
	half := advanceRunes(s.text, pos, room/2)
	for _, kind := range []breakKind{breakBlank, breakLine, breakSpace} {
		if c, ok := s.search(pos, half, limit, kind); ok {
			return c, s.skip(c)
		}
	}
	if c, ok := s.search(pos, pos+1, half-1, breakSpace); ok { // the rest of the room

		return c, s.skip(c)
	}
	c = s.anywhere(pos, half, limit)
	return c, s.skip(c)
}

// breakKind is a kind of place to cut, best first.
type breakKind int

const (
	breakBlank breakKind = iota
	breakLine
	breakSpace // a space, tab or line break
)

// search finds the latest good cut of the given kind in [lo, limit].
func (s *splitter) search(pos, lo, limit int, kind breakKind) (int, bool) {
	t := s.text
	for c := min(limit, len(t)-1); c >= lo && c > pos; c-- {
		if !s.is(kind, c) || !s.good(pos, c) {
			continue
		}
		return c, true
	}
	return 0, false
}

// is reports whether text[c] is a break of the given kind.
func (s *splitter) is(kind breakKind, c int) bool {
	t := s.text
	switch kind {
	case breakBlank:
		if t[c] != '\n' {
			return false
		}
		j := c + 1
		for j < len(t) && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r') {
			j++
		}
		return j < len(t) && t[j] == '\n'
	case breakLine:
		return t[c] == '\n'
	default:
		return t[c] == ' ' || t[c] == '\t' || t[c] == '\n'
	}
}

// good reports whether a cut at c is allowed: outside protected spans, leaving text in
// the part, and not leaving either side of a cut code block empty (which would produce
// a block with nothing in it).
func (s *splitter) good(pos, c int) bool {
	if _, in := spanAt(s.hard, c); in {
		return false
	}
	if _, in := spanAt(s.soft, c); in {
		return false
	}
	if !hasNonSpace(s.text[pos:c]) {
		return false
	}
	if f := s.openFence(c); f != nil {
		end := len(s.text)
		if i := sort.Search(len(s.fences), func(i int) bool { return s.fences[i].start > f.start }); i < len(s.fences) {
			end = s.fences[i].start
		}
		return hasNonSpace(s.text[f.end:c]) && hasNonSpace(s.text[c:end])
	}
	return true
}

// anywhere is the cut of last resort: at limit, moved back to the start of a protected
// span it would fall in, provided that leaves a part. Inline code is only worth moving
// back for when that keeps the part at least half full.
func (s *splitter) anywhere(pos, half, limit int) int {
	c := limit
	if sp, in := spanAt(s.hard, c); in && hasNonSpace(s.text[pos:sp.start]) {
		c = sp.start
	}
	if sp, in := spanAt(s.soft, c); in && sp.start >= half && hasNonSpace(s.text[pos:sp.start]) {
		c = sp.start
	}
	return c
}

// skip is where the next part starts after a cut at c: past the spaces and line breaks
// there, but not past the indentation of the line that follows.
func (s *splitter) skip(c int) int {
	t := s.text
	j, lineStart := c, -1
	for j < len(t) && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r' || t[j] == '\n') {
		if t[j] == '\n' {
			lineStart = j + 1
		}
		j++
	}
	if j == len(t) || lineStart < 0 {
		return j
	}
	return lineStart
}

func hasNonSpace(s string) bool {
	return strings.TrimLeft(s, " \t\r\n") != ""
}

// advanceRunes returns the byte offset n runes past pos in t, or len(t).
func advanceRunes(t string, pos, n int) int {
	for ; n > 0 && pos < len(t); n-- {
		if t[pos] < utf8.RuneSelf {
			pos++
			continue
		}
		_, size := utf8.DecodeRuneInString(t[pos:])
		pos += size
	}
	return pos
}
