package tools

import (
	"bufio"
	"bytes"
	"errors"
	"io"
)

// lineReader reads a file line by line without ever holding more than a bounded part of a line,
// so read can page through a 5 GB file, or one with a 1 GB line, in constant memory.
type lineReader struct {
	br  *bufio.Reader
	buf []byte
}

func newLineReader(r io.Reader) *lineReader {
	return &lineReader{br: bufio.NewReaderSize(r, 64<<10)}
}

// next returns the next line without its newline, of which at most keep bytes are kept, and the
// line's full size. ok is false at the end of the input. The returned slice is valid until the
// next call.
func (lr *lineReader) next(keep int) (line []byte, size int, ok bool, err error) {
	lr.buf = lr.buf[:0]
	for {
		chunk, err := lr.br.ReadSlice('\n')
		ended := err == nil
		if ended {
			chunk = chunk[:len(chunk)-1]
		}
		size += len(chunk)
		if room := keep - len(lr.buf); room > 0 {
			lr.buf = append(lr.buf, chunk[:min(room, len(chunk))]...)
		}
		switch {
		case ended:
			return lr.buf, size, true, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF):
			return lr.buf, size, size > 0, nil
		default:
			return nil, 0, false, err
		}
	}
}

// skip passes over the next line without keeping any of it; ok is false at the end of input.
func (lr *lineReader) skip() (ok bool, err error) {
	_, _, ok, err = lr.next(0)
	return ok, err
}

// countRest counts the lines left, much faster than reading them one by one.
func (lr *lineReader) countRest() (int, error) {
	buf := make([]byte, 64<<10)
	n, pending := 0, false // pending: bytes after the last newline seen
	for {
		m, err := lr.br.Read(buf)
		if m > 0 {
			n += bytes.Count(buf[:m], []byte{'\n'})
			pending = buf[m-1] != '\n'
		}
		if errors.Is(err, io.EOF) {
			if pending {
				n++
			}
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
