package cli

import (
	"io"
	"sync"

	"github.com/mom-agent/mom/internal/visible"
)

// writer serializes output from the input goroutine and the runs, and adds colour when the
// output is a terminal. Everything it prints goes through visible.Text first: the answer
// streams from a model that reads web pages and files, tool output and labels come from
// commands, notices name files, and none of it may move the cursor, rewrite the screen or
// set the title. Markdown is plain characters and prints as written; the only escape
// sequences that reach the terminal are the writer's own colours.
type writer struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	// midLine is true when the last thing written did not end with a newline.
	midLine bool
}

// style is an SGR colour code; plain is none.
type style string

const (
	plain  style = ""
	dim    style = "2"
	bold   style = "1"
	red    style = "31"
	cyan   style = "36"
	yellow style = "33"
)

// write prints s in style st where the output stands.
func (w *writer) write(st style, s string) {
	if s == "" || w.w == nil {
		return
	}
	s = visible.Text(s)
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = io.WriteString(w.w, w.paint(st, s))
	w.midLine = s[len(s)-1] != '\n'
}

// line prints s in style st on a line of its own.
func (w *writer) line(st style, s string) {
	if w.w == nil {
		return
	}
	s = visible.Text(s)
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.midLine {
		_, _ = io.WriteString(w.w, "\n")
	}
	_, _ = io.WriteString(w.w, w.paint(st, s)+"\n")
	w.midLine = false
}

// endLine finishes a line that streamed text left open.
func (w *writer) endLine() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.midLine && w.w != nil {
		_, _ = io.WriteString(w.w, "\n")
		w.midLine = false
	}
}

// paint wraps s, already visible, in the colour st when the output is a terminal.
func (w *writer) paint(st style, s string) string {
	if !w.color || st == plain || s == "" {
		return s
	}
	return "\x1b[" + string(st) + "m" + s + "\x1b[0m"
}
