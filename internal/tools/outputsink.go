package tools

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"time"

	"github.com/mom-agent/mom/internal/confined"
)

// tailKeep is how much of a command's output the sink holds in memory once the output is over
// the limit: a little more than maxOutputBytes, which is all tailCut needs to find the same cut
// as on the whole output. The buffer grows to twice this before it is compacted, so copying
// stays amortised.
const tailKeep = maxOutputBytes + 4<<10

// outputSink receives a command's output as it streams (it is the Command.Output of bash). It
// keeps the tail in memory and counts bytes and lines; once the output no longer fits the limits
// it saves the full output to a file in the scratch directory, so memory stays bounded even for
// a command that prints gigabytes while the model can still get at every byte. Write is called
// from one goroutine only (the executor guarantees it), so the sink needs no lock.
type outputSink struct {
	tail     []byte
	total    int
	newlines int
	curLine  int // bytes of the line being written, after the last newline
	prevLine int // bytes of the line the last newline ended

	spillDir  confined.Dir // where the full output goes (the channel's scratch/); zero disables saving it
	spillName string       // the file's name in spillDir
	spillPath string       // the same on the host
	spillFile *os.File
	spillBuf  *bufio.Writer
	spillErr  error

	progress func(string)
}

func newOutputSink(spillDir confined.Dir, progress func(string)) *outputSink {
	return &outputSink{spillDir: spillDir, progress: progress}
}

// Write never fails: a failure to save the full output is remembered and reported in the
// result, and the command carries on.
func (s *outputSink) Write(p []byte) (int, error) {
	s.count(p)
	if s.spillBuf != nil {
		if _, err := s.spillBuf.Write(p); err != nil {
			s.stopSpill(err)
		}
	}
	s.tail = append(s.tail, p...)
	if s.spillBuf == nil && s.spillErr == nil && s.overLimit() {
		// Nothing has been dropped yet (the tail is only trimmed once over the limit), so
		// the tail holds the whole output so far.
		s.startSpill()
	}
	if len(s.tail) > 2*tailKeep {
		n := copy(s.tail, s.tail[len(s.tail)-tailKeep:])
		s.tail = s.tail[:n]
	}
	if s.progress != nil && bytes.IndexByte(p, '\n') >= 0 {
		// One update per batch of complete lines: a slow command shows every line, a fast
		// one at most one update per pipe read (64 KB).
		s.progress(s.view())
	}
	return len(p), nil
}

// count updates the byte and line counters and the sizes of the last two lines.
func (s *outputSink) count(p []byte) {
	s.total += len(p)
	last := bytes.LastIndexByte(p, '\n')
	if last < 0 {
		s.curLine += len(p)
		return
	}
	n := bytes.Count(p, []byte{'\n'})
	s.newlines += n
	if n == 1 {
		s.prevLine = s.curLine + last
	} else {
		s.prevLine = last - (bytes.LastIndexByte(p[:last], '\n') + 1)
	}
	s.curLine = len(p) - last - 1
}

func (s *outputSink) totalLines() int {
	if s.curLine > 0 {
		return s.newlines + 1
	}
	return s.newlines
}

func (s *outputSink) overLimit() bool {
	return s.total > maxOutputBytes || s.totalLines() > maxOutputLines
}

func (s *outputSink) startSpill() {
	if s.spillDir.IsZero() {
		s.spillErr = fmt.Errorf("no scratch directory to save it in")
		return
	}
	// scratch/ is the command's own directory: it may have made it a link by now.
	if err := s.spillDir.MkdirAll("", 0o755); err != nil {
		s.spillErr = err
		return
	}
	f, name, err := s.spillDir.CreateTemp("", "bash-"+time.Now().Format("20060102-150405")+"-*.log")
	if err != nil {
		s.spillErr = err
		return
	}
	s.spillFile, s.spillName, s.spillPath = f, name, f.Name()
	s.spillBuf = bufio.NewWriterSize(f, 64<<10)
	if _, err := s.spillBuf.Write(s.tail); err != nil {
		s.stopSpill(err)
	}
}

// stopSpill gives up saving the full output: an incomplete file would mislead.
func (s *outputSink) stopSpill(err error) {
	s.spillErr = err
	s.spillFile.Close()
	s.spillDir.Remove(s.spillName)
	s.spillFile, s.spillBuf, s.spillName, s.spillPath = nil, nil, "", ""
}

// close finishes the saved full output, if any. The sink must not be written to afterwards.
func (s *outputSink) close() {
	if s.spillBuf == nil {
		return
	}
	err := s.spillBuf.Flush()
	if cerr := s.spillFile.Close(); err == nil {
		err = cerr
	}
	s.spillFile, s.spillBuf = nil, nil
	if err != nil {
		s.spillErr = err
		s.spillDir.Remove(s.spillName)
		s.spillName, s.spillPath = "", ""
	}
}

// window returns the part of the tail tailCut needs: at most tailKeep bytes, which once the
// output is over the limit is more than maxOutputBytes, as tailCut requires.
func (s *outputSink) window() string {
	w := s.tail
	if len(w) > tailKeep {
		w = w[len(w)-tailKeep:]
	}
	return string(w)
}

// view is the output as the model would see it now, without the notice.
func (s *outputSink) view() string {
	content, _ := s.result()
	return content
}

// result returns the kept output and how it was cut.
func (s *outputSink) result() (string, Truncation) {
	t := Truncation{
		TotalLines: s.totalLines(), TotalBytes: s.total,
		MaxLines: maxOutputLines, MaxBytes: maxOutputBytes,
	}
	w := s.window()
	if !s.overLimit() {
		t.OutputLines, t.OutputBytes = t.TotalLines, t.TotalBytes
		return w, t
	}
	start, lines, partial, by := tailCut(w, maxOutputLines, maxOutputBytes)
	t.Truncated, t.TruncatedBy = true, by
	t.OutputLines, t.OutputBytes, t.LastLinePartial = lines, len(w)-start, partial
	return w[start:], t
}

// lastLineBytes is the size of the output's last line, for the notice about a partial one.
func (s *outputSink) lastLineBytes() int {
	if s.curLine > 0 {
		return s.curLine
	}
	return s.prevLine
}
