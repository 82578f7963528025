package jsonl

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/mom-agent/mom/internal/confined"
)

// MaxLine is the longest line a reader accepts, in bytes with its newline. Images are stored
// inline in context.jsonl as base64, so a tool result can reach tens of megabytes; anything
// longer is skipped (and counted) rather than held in memory.
const MaxLine = 128 << 20

// ErrSkip is returned, wrapped or not, by a Scan callback to say the line is malformed: Scan
// counts it in Stats.Malformed and goes on with the next line.
var ErrSkip = errors.New("malformed line")

// Stats says what a Scan saw, so callers can report damage without the reader logging.
type Stats struct {
	Lines     int   // lines passed to the callback and accepted by it
	Malformed int   // lines the callback rejected with ErrSkip
	Blank     int   // empty or whitespace-only lines, skipped
	TooLong   int   // lines longer than MaxLine, skipped unread
	TornTail  int64 // bytes of a last line with no newline, skipped (0 when the file ends in '\n')
	// End is the offset just past the last complete line: where the next Scan should start to
	// see only newer lines. A torn tail is not included, so it is read once it is complete.
	End int64
}

// Scan calls fn for every complete line of the file name in dir that starts at or after offset
// from, in order. from must be the start of a line (0, or an end offset returned by Append or
// Scan); a line cut by it would read as malformed. fn receives the line without its newline;
// the slice is only valid during the call. A line that fn rejects with ErrSkip is counted and
// skipped; any other error stops the scan and is returned as is.
//
// A file that does not exist is an error satisfying errors.Is(err, fs.ErrNotExist); a link
// or a special file is refused (see package confined).
func Scan(dir confined.Dir, name string, from int64, fn func(line []byte, start, end int64) error) (Stats, error) {
	f, err := dir.Open(name)
	if err != nil {
		return Stats{End: from}, fmt.Errorf("read %s: %w", name, err)
	}
	defer f.Close()
	path := f.Name()
	if from > 0 {
		if _, err := f.Seek(from, io.SeekStart); err != nil {
			return Stats{End: from}, fmt.Errorf("read %s from byte %d: %w", path, from, err)
		}
	}
	st, readErr, fnErr := scan(f, from, MaxLine, readBuffer(f, from), fn)
	if readErr != nil {
		return st, fmt.Errorf("read %s: %w", path, readErr)
	}
	return st, fnErr
}

// scan frames lines; it returns a read error and the callback's error apart so that only the
// first is wrapped with the file name (the callback names what it rejected itself).
func scan(r io.Reader, from int64, maxLine, bufSize int, fn func(line []byte, start, end int64) error) (st Stats, readErr, fnErr error) {
	st.End = from
	br := bufio.NewReaderSize(r, bufSize)
	var long []byte // assembles lines longer than the reader's buffer
	pos := from
	tooLong := false
	for {
		chunk, err := br.ReadSlice('\n')
		switch {
		case err == nil:
		case errors.Is(err, bufio.ErrBufferFull):
			if !tooLong {
				if len(long)+len(chunk) > maxLine {
					tooLong, long = true, nil
				} else {
					long = append(long, chunk...)
				}
			}
			pos += int64(len(chunk))
			continue
		case errors.Is(err, io.EOF):
			st.TornTail = pos + int64(len(chunk)) - st.End
			return st, nil, nil
		default:
			return st, err, nil
		}

		pos += int64(len(chunk))
		start := st.End
		st.End = pos
		line := chunk
		if tooLong || len(long)+len(chunk) > maxLine {
			st.TooLong++
			tooLong, long = false, long[:0]
			continue
		}
		if len(long) > 0 {
			long = append(long, chunk...)
			line = long
		}
		line = line[:len(line)-1]
		if len(bytes.TrimSpace(line)) == 0 {
			st.Blank++
		} else if ferr := fn(line, start, pos); ferr == nil {
			st.Lines++
		} else if errors.Is(ferr, ErrSkip) {
			st.Malformed++
		} else {
			return st, nil, ferr
		}
		if cap(long) > 1<<20 {
			long = nil // don't keep an image-sized buffer for the rest of the file
		} else {
			long = long[:0]
		}
	}
}

// maxReadBuffer is the largest buffer a scan reads through; longer lines are assembled.
const maxReadBuffer = 64 << 10

// readBuffer sizes a scan's buffer to what is left to read after from, within 4 KB and
// maxReadBuffer: a run syncs a few new log lines, and a thousand channels running at once
// should not each hold 64 KB to read them.
func readBuffer(f *os.File, from int64) int {
	info, err := f.Stat()
	if err != nil {
		return maxReadBuffer
	}
	return int(min(max(info.Size()-from+1, 4<<10), maxReadBuffer))
}
