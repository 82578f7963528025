package cli

import (
	"io"
	"sync"
)

// writer serializes output from the input goroutine and the runs, and adds colour when the
// output is a terminal.
type writer struct {
	mu    sync.Mutex
	w     io.Writer
	color bool
	// midLine is true when the last thing written did not end with a newline.
	midLine bool
}

func (w *writer) write(s string) {
	if s == "" || w.w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	_, _ = io.WriteString(w.w, s)
	w.midLine = s[len(s)-1] != '\n'
}

// line writes s on a line of its own.
func (w *writer) line(s string) {
	if w.w == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.midLine {
		_, _ = io.WriteString(w.w, "\n")
	}
	_, _ = io.WriteString(w.w, s+"\n")
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

func (w *writer) paint(code, s string) string {
	if !w.color || s == "" {
		return s
	}
	return "\x1b[" + code + "m" + s + "\x1b[0m"
}

func (w *writer) dim(s string) string  { return w.paint("2", s) }
func (w *writer) bold(s string) string { return w.paint("1", s) }
func (w *writer) red(s string) string  { return w.paint("31", s) }
func (w *writer) cyan(s string) string { return w.paint("36", s) }
