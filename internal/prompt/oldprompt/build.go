package oldprompt

import (
	_ "embed"
	"strings"
	"text/template"
)

//go:embed prompt.md
var promptText string

// tmpl is parsed once; Execute on a parsed template is safe for concurrent use.
var tmpl = template.Must(template.New("prompt.md").Parse(promptText))

// Build returns the system prompt for p.
func Build(p Params) string {
	v := newView(&p)
	var b strings.Builder
	b.Grow(len(promptText) + v.size())
	if err := tmpl.Execute(&b, v); err != nil {
		// The template and the view are both fixed in this package, so this is a bug that
		// the tests catch, not something a caller could handle.
		panic("prompt: " + err.Error())
	}
	return tidy(b.String())
}

// tidy removes trailing whitespace from every line, turns runs of blank lines into one, and
// ends the text with exactly one newline, so the template can be laid out for reading and
// inserted text (memory files) cannot add invisible noise.
func tidy(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	blank := true // Drop blank lines at the very start too.
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			if !blank {
				b.WriteByte('\n')
			}
			blank = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		blank = false
	}
	out := b.String()
	for strings.HasSuffix(out, "\n\n") {
		out = out[:len(out)-1]
	}
	return out
}
