package sse

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
)

// readAll reads every event of a stream, as "type|data" strings.
func readAll(t *testing.T, stream string) ([]string, error) {
	t.Helper()
	r := NewReader(strings.NewReader(stream))
	var out []string
	for {
		ev, err := r.Next()
		if err != nil {
			return out, err
		}
		out = append(out, ev.Type+"|"+string(ev.Data))
	}
}

// TestSSEReader: line endings of all three kinds, comments, multi-line data, named events,
// fields without a space after the colon, blank lines without data, and a last event the
// server did not end with a blank line.
func TestSSEReader(t *testing.T) {
	t.Parallel()
	stream := ": keep-alive\n\n" +
		"data: {\"a\":1}\n\n" +
		"data:{\"b\":2}\r\n\r\n" +
		"event: error\rdata: line one\rdata: line two\r\r" +
		"id: 7\nretry: 10\n\n" +
		"data: \n\n" +
		"data: [DONE]"
	got, err := readAll(t, stream)
	if !errors.Is(err, io.EOF) {
		t.Fatalf("err %v; want EOF", err)
	}
	want := []string{`|{"a":1}`, `|{"b":2}`, "error|line one\nline two", "|", "|[DONE]"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events:\n got %q\nwant %q", got, want)
	}
}

// TestSSEReaderBoundsALine: a server that sends a line without end gets an error, not all of
// mom's memory.
func TestSSEReaderBoundsALine(t *testing.T) {
	t.Parallel()
	r := NewReader(io.MultiReader(strings.NewReader("data: "), neverEnding{}))
	if _, err := r.Next(); err == nil || !strings.Contains(err.Error(), "MiB") {
		t.Errorf("err %v; want one that names the limit", err)
	}
}

// neverEnding is a body of endless x's.
type neverEnding struct{}

func (neverEnding) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// FuzzSSEReader: any bytes at all end in an error or EOF, never a panic or a loop, and every
// event read has data that came from the stream.
func FuzzSSEReader(f *testing.F) {
	for _, s := range []string{"data: x\n\n", "event: e\r\ndata: a\r\ndata: b\r\n\r\n", ":\n\ndata", "\r\r\n\n", "data: [DONE]\n\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, stream string) {
		r := NewReader(strings.NewReader(stream))
		for i := 0; ; i++ {
			ev, err := r.Next()
			if err != nil {
				return
			}
			if i > len(stream) || len(ev.Data) > len(stream) {
				t.Fatalf("event %d (%d bytes of data) from a stream of %d bytes", i, len(ev.Data), len(stream))
			}
		}
	})
}
