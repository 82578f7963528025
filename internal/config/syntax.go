package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/tailscale/hujson"
)

// hujsonPosition matches the position hujson puts in front of its syntax errors.
var hujsonPosition = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^hujson: line (\d+), column (\d+): (.*)$`)
})

// parseSyntax parses HuJSON and rewrites its errors in the file:line:column form editors jump
// to, followed by the offending line and a caret.
func parseSyntax(data []byte, name string) (*hujson.Value, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return nil, fmt.Errorf("%s: the file is empty; it should hold an object such as {\"adapters\": {\"terminal\": {\"type\": \"cli\"}}}", name)
	}
	v, err := hujson.Parse(data)
	if err == nil {
		return &v, nil
	}
	m := hujsonPosition().FindStringSubmatch(err.Error())
	if m == nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	line, _ := strconv.Atoi(m[1])
	col, _ := strconv.Atoi(m[2])
	msg := m[3]
	if lit, ok := strings.CutPrefix(msg, "invalid literal: "); ok {
		// hujson reads any run of letters as one literal; say what valid ones look like.
		msg = fmt.Sprintf("invalid value %s (strings need \"double quotes\"; true, false and null are lower case)", lit)
	}
	if strings.HasSuffix(msg, "unexpected EOF") {
		msg += " (the file ends before every { and [ is closed: a } or ] is missing)"
	}
	return nil, fmt.Errorf("%s:%d:%d: %s%s", name, line, col, msg, excerpt(data, line, col))
}

// excerptWidth is how many bytes of a long line are shown around the error.
const excerptWidth = 60

// excerpt shows line (1-based) of data with a caret under byte column col.
func excerpt(data []byte, line, col int) string {
	lines := bytes.Split(data, []byte("\n"))
	if line < 1 || line > len(lines) {
		return ""
	}
	text := strings.TrimRight(string(lines[line-1]), "\r")
	at := min(max(col-1, 0), len(text))
	// Keep long lines short, centred on the error.
	start := 0
	if at > excerptWidth {
		start = at - excerptWidth/2
	}
	end := min(len(text), start+excerptWidth)
	shown := text[start:end]
	var caret strings.Builder
	for _, r := range text[start:at] {
		if r == '\t' {
			caret.WriteByte('\t')
		} else {
			caret.WriteByte(' ')
		}
	}
	prefix := strconv.Itoa(line)
	pad := strings.Repeat(" ", len(prefix))
	return fmt.Sprintf("\n  %s | %s\n  %s | %s^", prefix, shown, pad, caret.String())
}
