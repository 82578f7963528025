package skills

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxHead is how much of a SKILL.md is read: the frontmatter must fit in it. Real frontmatter
// is a few hundred bytes; the rest of the file (the instructions) is the model's to read.
const maxHead = 16 << 10

// maxDescription caps a description in runes, so one verbose skill cannot crowd the system
// prompt. It is the limit the Agent Skills format sets.
const maxDescription = 1024

// frontmatter is what mom takes from a SKILL.md's frontmatter.
type frontmatter struct {
	name, description string
	hidden            bool
}

// parseFrontmatter reads the "---" block at the top of head. It understands the YAML that
// skill authors write for these keys (plain, single- and double-quoted scalars, ">" and "|"
// blocks, and indented continuation lines) and ignores every other key, so mom needs no YAML
// library. truncated says head is only the start of a longer file. problem is a reason for
// people when the block is missing or unterminated.
func parseFrontmatter(head []byte, truncated bool) (fm frontmatter, problem string) {
	head = bytes.TrimPrefix(head, []byte("\xef\xbb\xbf"))
	first, rest, _ := bytes.Cut(head, []byte("\n"))
	if string(bytes.TrimRight(first, " \t\r")) != "---" {
		return fm, "it does not start with a frontmatter block (a \"---\" line, then name and description, then \"---\")"
	}
	// Find the closing line in the bytes, so only the frontmatter becomes strings.
	end := -1
	for off := 0; off < len(rest); {
		line, _, _ := bytes.Cut(rest[off:], []byte("\n"))
		if t := string(bytes.TrimRight(line, " \t\r")); t == "---" || t == "..." {
			end = off
			break
		}
		off += len(line) + 1
	}
	if end < 0 {
		// The last line of a truncated head may be cut short, so the close may be just past it.
		if truncated {
			return fm, "its frontmatter does not end within the first 16 KiB"
		}
		return fm, "its frontmatter has no closing \"---\" line"
	}
	lines := strings.Split(string(rest[:end]), "\n")
	for i := range lines {
		lines[i] = strings.TrimRight(lines[i], "\r")
	}
	for i := 0; i < len(lines); {
		key, value, next := entry(lines, i)
		i = next
		switch key {
		case "name":
			fm.name = strings.Join(strings.Fields(value), " ")
		case "description":
			fm.description = clip(strings.TrimSpace(value), maxDescription)
		case "disable-model-invocation":
			fm.hidden = strings.EqualFold(strings.TrimSpace(value), "true")
		}
	}
	return fm, ""
}

// entry reads the top-level "key: value" starting at lines[i], with any lines that continue it,
// and returns the index of the line after it. Lines that are not top-level keys (comments,
// nested mappings, list items) yield an empty key.
func entry(lines []string, i int) (key, value string, next int) {
	line := lines[i]
	next = i + 1
	if line == "" || indented(line) || line[0] == '#' || line[0] == '-' {
		return "", "", next
	}
	key, rest, ok := strings.Cut(line, ":")
	if !ok {
		return "", "", next
	}
	key = strings.TrimSpace(key)
	rest = strings.TrimSpace(rest)
	// The value's continuation: every following line that is blank or indented.
	end := next
	for end < len(lines) && (strings.TrimSpace(lines[end]) == "" || indented(lines[end])) {
		end++
	}
	more := lines[next:end]
	switch {
	case rest != "" && (rest[0] == '|' || rest[0] == '>'):
		return key, block(rest, more), end
	case rest != "" && (rest[0] == '"' || rest[0] == '\''):
		return key, quoted(rest, more), end
	default:
		return key, plain(rest, more), end
	}
}

func indented(line string) bool {
	return line != "" && (line[0] == ' ' || line[0] == '\t')
}

// plain reads an unquoted scalar, which may continue on indented lines (folded into spaces)
// and ends at a " #" comment.
func plain(first string, more []string) string {
	parts := []string{stripComment(first)}
	for _, l := range more {
		parts = append(parts, stripComment(strings.TrimSpace(l)))
	}
	return fold(parts)
}

func stripComment(s string) string {
	if strings.HasPrefix(s, "#") {
		return ""
	}
	if i := strings.Index(s, " #"); i >= 0 {
		s = s[:i]
	}
	return strings.TrimSpace(s)
}

// fold joins lines as YAML folds them: a line break becomes a space, an empty line a newline.
func fold(lines []string) string {
	var b strings.Builder
	newline := true
	for _, l := range lines {
		if l == "" {
			if b.Len() > 0 {
				b.WriteByte('\n')
				newline = true
			}
			continue
		}
		if !newline {
			b.WriteByte(' ')
		}
		b.WriteString(l)
		newline = false
	}
	return strings.TrimSpace(b.String())
}

// block reads a "|" (literal: line breaks kept) or ">" (folded) block scalar. Chomping and
// indentation indicators are accepted; trailing line breaks do not matter here because values
// are trimmed.
func block(header string, more []string) string {
	literal := header[0] == '|'
	indent := -1
	lines := make([]string, 0, len(more))
	for _, l := range more {
		if strings.TrimSpace(l) == "" {
			lines = append(lines, "")
			continue
		}
		n := len(l) - len(strings.TrimLeft(l, " \t"))
		if indent < 0 {
			indent = n
		}
		lines = append(lines, l[min(n, indent):])
	}
	if literal {
		return strings.TrimSpace(strings.Join(lines, "\n"))
	}
	return fold(lines)
}

// quoted reads a single- or double-quoted scalar, which may span lines. Line breaks are folded
// before escapes are resolved, so an escaped "\n" stays a line break.
func quoted(first string, more []string) string {
	lines := make([]string, 0, 1+len(more))
	lines = append(lines, first[1:])
	for _, l := range more {
		l = strings.TrimSpace(l)
		last := len(lines) - 1
		if first[0] == '"' && endsWithEscape(lines[last]) {
			// An escaped line break joins the lines without a space.
			lines[last] = lines[last][:len(lines[last])-1] + l
			continue
		}
		lines = append(lines, l)
	}
	text := fold(lines)
	if first[0] == '\'' {
		return strings.TrimSpace(singleQuoted(text))
	}
	return strings.TrimSpace(doubleQuoted(text))
}

// endsWithEscape reports whether s ends in an odd number of backslashes.
func endsWithEscape(s string) bool {
	n := len(s) - len(strings.TrimRight(s, "\\"))
	return n%2 == 1
}

// singleQuoted returns the text up to the closing quote, reading a doubled quote as one.
func singleQuoted(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\'' {
			if i+1 < len(s) && s[i+1] == '\'' {
				b.WriteByte('\'')
				i++
				continue
			}
			break
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// doubleQuoted returns the text up to the closing quote with escapes resolved. Unknown
// escapes are kept as written rather than dropped.
func doubleQuoted(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '"' {
			break
		}
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		i++
		switch e := s[i]; e {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case '0':
			b.WriteByte(0)
		case '"', '\\', '/', '\'':
			b.WriteByte(e)
		case ' ':
			b.WriteByte(' ')
		case 'x', 'u', 'U':
			width := 2
			switch e {
			case 'u':
				width = 4
			case 'U':
				width = 8
			}
			if i+width < len(s) {
				if r, err := strconv.ParseUint(s[i+1:i+1+width], 16, 32); err == nil && utf8.ValidRune(rune(r)) {
					b.WriteRune(rune(r))
					i += width
					continue
				}
			}
			b.WriteByte('\\')
			b.WriteByte(e)
		default:
			b.WriteByte('\\')
			b.WriteByte(e)
		}
	}
	return b.String()
}

// clip shortens s to at most n runes, marking the cut.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
