// Package sse reads server-sent events, the stream both model APIs answer in.
package sse

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxEvent bounds one server-sent event: a whole answer fits many times over, and a server
// that sends a line without end cannot make mom hold it all.
const MaxEvent = 16 << 20

// Event is one server-sent event: its type ("" unless the server names one) and its data,
// the data lines joined by newlines.
type Event struct {
	Type string
	Data []byte
}

// Reader reads server-sent events as the HTML standard defines them: "field: value"
// lines, comments starting with ":", events ending at a blank line, lines ending in LF, CRLF
// or CR. id and retry mean nothing to a single streamed answer and are ignored.
type Reader struct {
	r      *bufio.Reader
	line   []byte
	skipLF bool // the last line ended in CR: an LF right after it belongs to that ending
}

// NewReader returns a Reader of the events in r.
func NewReader(r io.Reader) *Reader {
	return &Reader{r: bufio.NewReaderSize(r, 32<<10)}
}

// Next returns the next event with data. At the end of the stream it returns io.EOF, after
// handing out an event the server did not end with a blank line; a stream cut inside an
// event returns the transport's error (io.ErrUnexpectedEOF for a cut chunked body).
func (s *Reader) Next() (Event, error) {
	var ev Event
	var data bytes.Buffer
	hasData := false
	for {
		line, err := s.readLine()
		if err != nil {
			if errors.Is(err, io.EOF) && hasData {
				ev.Data = data.Bytes()
				return ev, nil
			}
			return Event{}, err
		}
		if len(line) == 0 {
			if hasData {
				ev.Data = data.Bytes()
				return ev, nil
			}
			ev = Event{}
			continue
		}
		if line[0] == ':' {
			continue // a comment, which servers send to keep the connection alive
		}
		field, value, _ := bytes.Cut(line, []byte(":"))
		value = bytes.TrimPrefix(value, []byte(" "))
		switch string(field) {
		case "event":
			ev.Type = string(value)
		case "data":
			if hasData {
				data.WriteByte('\n')
			}
			if data.Len()+len(value) > MaxEvent {
				return Event{}, fmt.Errorf("the server sent an event of more than %d MiB", MaxEvent>>20)
			}
			data.Write(value)
			hasData = true
		}
	}
}

// readLine returns the next line without its ending. A CR alone ends a line too; the LF of a
// CRLF is then skipped when it comes.
func (s *Reader) readLine() ([]byte, error) {
	s.line = s.line[:0]
	for {
		b, err := s.r.ReadByte()
		if err != nil {
			if errors.Is(err, io.EOF) && len(s.line) > 0 {
				return s.line, nil
			}
			return nil, err
		}
		skip := s.skipLF
		s.skipLF = false
		switch {
		case b == '\n' && skip && len(s.line) == 0:
			continue
		case b == '\n':
			return s.line, nil
		case b == '\r':
			s.skipLF = true
			return s.line, nil
		}
		if len(s.line) >= MaxEvent {
			return nil, fmt.Errorf("the server sent a line of more than %d MiB", MaxEvent>>20)
		}
		s.line = append(s.line, b)
	}
}
