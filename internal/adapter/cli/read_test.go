package cli

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestReadUpToLines(t *testing.T) {
	long := strings.Repeat("x", 300<<10)
	r := bufio.NewReaderSize(strings.NewReader("one\n"+long+"\nthree\nlast"), 64<<10)
	want := []struct {
		text string
		cut  bool
		err  error
	}{
		{"one", false, nil},
		{long[:100<<10], true, nil},
		{"three", false, nil},
		{"last", false, io.EOF},
	}
	for i, w := range want {
		text, cut, err := readUpTo(r, 100<<10, '\n')
		if text != w.text || cut != w.cut || err != w.err {
			t.Fatalf("read %d = (%d bytes, %v, %v), want (%d bytes, %v, %v)", i, len(text), cut, err, len(w.text), w.cut, w.err)
		}
	}
}

func TestReadUpToWholeInput(t *testing.T) {
	r := bufio.NewReader(strings.NewReader("first line\nsecond line\n"))
	text, cut, err := readUpTo(r, 1<<20, 0)
	if text != "first line\nsecond line\n" || cut || err != io.EOF {
		t.Errorf("got %q %v %v", text, cut, err)
	}
	r = bufio.NewReader(strings.NewReader(strings.Repeat("é", 100)))
	if text, cut, _ := readUpTo(r, 101, 0); !cut || len(text) != 100 || !strings.HasSuffix(text, "é") {
		t.Errorf("a cut in the middle of a character left %q (%v)", text, cut)
	}
}
