package prompt

import "strings"

// A value is what a placeholder in a section file stands for.
type value struct {
	// text is written as it is when prose is false: nothing in it is read as a placeholder,
	// so a name or a memory file that happens to hold "{{Workspace}}" stays as it is.
	text string
	// prose says text is itself a section file, whose placeholders are filled in turn.
	prose bool
}

// plain and prose are the two kinds of value, shaped to be returned from a lookup.
func plain(s string) (value, bool) { return value{text: s}, true }
func prose(s string) (value, bool) { return value{text: s, prose: true}, true }

// fill writes text to b with each placeholder {{Name}} replaced by the value lookup gives
// for Name. Names are ASCII letters.
//
// A placeholder alone on its line stands for whole lines: its value is ended with a newline
// if it lacks one, and an empty value removes the line, so an optional sentence leaves no
// blank line behind. Elsewhere in a line the value is written where the placeholder was.
// Double braces around anything else, or around a name lookup does not know, are written as
// they are.
func fill(b *strings.Builder, text string, lookup func(name string) (value, bool)) {
	for text != "" {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line = text[:i+1]
		}
		text = text[len(line):]

		if name, n := placeholder(line); n > 0 && strings.TrimSuffix(line[n:], "\n") == "" {
			if v, ok := lookup(name); ok {
				start := b.Len()
				write(b, v, lookup)
				if b.Len() > start && !strings.HasSuffix(b.String(), "\n") {
					b.WriteByte('\n')
				}
				continue
			}
		}
		for {
			i := strings.Index(line, "{{")
			if i < 0 {
				b.WriteString(line)
				break
			}
			b.WriteString(line[:i])
			line = line[i:]
			if name, n := placeholder(line); n > 0 {
				if v, ok := lookup(name); ok {
					write(b, v, lookup)
					line = line[n:]
					continue
				}
			}
			b.WriteByte('{')
			line = line[1:]
		}
	}
}

func write(b *strings.Builder, v value, lookup func(name string) (value, bool)) {
	if v.prose {
		fill(b, v.text, lookup)
	} else {
		b.WriteString(v.text)
	}
}

// placeholder reads a placeholder at the start of s and returns its name and length, or a
// length of 0 when s does not start with one.
func placeholder(s string) (name string, n int) {
	if !strings.HasPrefix(s, "{{") {
		return "", 0
	}
	i := 2
	for i < len(s) && (s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
		i++
	}
	if i == 2 || !strings.HasPrefix(s[i:], "}}") {
		return "", 0
	}
	return s[2:i], i + 2
}
