package jsonl

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/mom-agent/mom/internal/confined"
)

// ErrStop is returned, wrapped or not, by a ScanBack callback to end the scan early without an
// error: a reader of the newest lines stops as soon as it has enough.
var ErrStop = errors.New("stop scanning")

// backBlock is how much ScanBack reads at a time. Chat messages are a few hundred bytes, so
// one block usually holds a page of history.
const backBlock = 64 << 10

// ScanBack calls fn for every complete line of the file name in dir that ends at or before offset
// end, newest first. end is normally the file's size (File.Size): bytes after the last newline
// before it are a torn tail and are skipped, as Scan skips them. The other rules are Scan's
// too: blank lines and lines longer than MaxLine are skipped (the latter unread), a line fn
// rejects with ErrSkip is counted, and any other error from fn ends the scan and is returned
// as is, except ErrStop, which ends it with a nil error. fn receives the line without its
// newline; the slice is only valid during the call.
//
// The file is read from the end in blocks, so finding the newest lines of a long log costs
// what those lines cost, not what the whole file does.
//
// A file that does not exist is an error satisfying errors.Is(err, fs.ErrNotExist); a link
// or a special file is refused (see package confined).
func ScanBack(dir confined.Dir, name string, end int64, fn func(line []byte, start, end int64) error) (Stats, error) {
	f, err := dir.Open(name)
	if err != nil {
		return Stats{}, fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	path := f.Name()
	st, readErr, fnErr := scanBack(f, end, backBlock, MaxLine, fn)
	if readErr != nil {
		return st, fmt.Errorf("read %s backwards from byte %d: %w", path, end, readErr)
	}
	if errors.Is(fnErr, ErrStop) {
		return st, nil
	}
	return st, fnErr
}

// backScanner frames lines for scanBack.
type backScanner struct {
	r       io.ReaderAt
	maxLine int
	fn      func(line []byte, start, end int64) error
	st      Stats
	long    []byte // holds a line that spans blocks
}

// scanBack walks r from end towards its start one block at a time, looking only for newlines.
// A line that lies within the current block is handed to fn from it; one that spans blocks
// is read again whole once its start is found, so memory stays one block plus the longest
// line, and a line over maxLine is never read at all.
func scanBack(r io.ReaderAt, end int64, block, maxLine int, fn func(line []byte, start, end int64) error) (st Stats, readErr, fnErr error) {
	s := &backScanner{r: r, maxLine: maxLine, fn: fn}
	buf := make([]byte, block)
	var blk []byte       // the block last read, which starts at offset at
	at := end            // bytes before at are still to be read
	lineEnd := int64(-1) // end of the line being framed, past its newline; -1 in the torn tail
	for at > 0 {
		n := min(int64(block), at)
		at -= n
		blk = buf[:n]
		if _, err := r.ReadAt(blk, at); err != nil {
			return s.st, err, nil
		}
		for i := len(blk); ; {
			if i = bytes.LastIndexByte(blk[:i], '\n'); i < 0 {
				break
			}
			start := at + int64(i) + 1
			if lineEnd < 0 {
				s.st.End, s.st.TornTail = start, end-start
			} else if readErr, fnErr = s.line(start, lineEnd, blk, at); readErr != nil || fnErr != nil {
				return s.st, readErr, fnErr
			}
			lineEnd = start
		}
	}
	if lineEnd < 0 { // not one newline: the whole file is a torn line
		s.st.TornTail = end
		return s.st, nil, nil
	}
	readErr, fnErr = s.line(0, lineEnd, blk, 0)
	return s.st, readErr, fnErr
}

// line hands the line [start, end) to fn, counting it in the stats; blk holds the file's
// bytes from offset at.
func (s *backScanner) line(start, end int64, blk []byte, at int64) (readErr, fnErr error) {
	n := end - start
	if n > int64(s.maxLine) {
		s.st.TooLong++
		return nil, nil
	}
	var line []byte
	if end <= at+int64(len(blk)) {
		line = blk[start-at : end-at]
	} else {
		if int64(cap(s.long)) < n {
			s.long = make([]byte, n)
		}
		line = s.long[:n]
		if _, err := s.r.ReadAt(line, start); err != nil {
			return err, nil
		}
	}
	line = line[:n-1]
	if len(bytes.TrimSpace(line)) == 0 {
		s.st.Blank++
		return nil, nil
	}
	switch err := s.fn(line, start, end); {
	case err == nil:
		s.st.Lines++
	case errors.Is(err, ErrSkip):
		s.st.Malformed++
	default:
		return nil, err
	}
	if cap(s.long) > 1<<20 {
		s.long = nil // don't keep an image-sized buffer for the rest of the file
	}
	return nil, nil
}
