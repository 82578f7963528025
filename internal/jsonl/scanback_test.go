package jsonl

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
)

// seen is one line a scan handed to its callback.
type seen struct {
	line       string
	start, end int64
}

// TestScanBackMatchesScan reads the same files both ways, with blocks from one byte to larger
// than the file, so every line crosses a block edge somewhere: ScanBack must see exactly
// Scan's lines, in reverse, with the same offsets and counts.
func TestScanBackMatchesScan(t *testing.T) {
	const maxLine = 40
	files := map[string]string{
		"empty":           "",
		"one line":        "{\"n\":1}\n",
		"only a torn":     "{\"n\":1",
		"only a newline":  "\n",
		"torn tail":       "{\"n\":1}\n{\"n\":2}\n{\"n\":3,\"s\":\"cut",
		"blank lines":     "\n  \n{\"n\":1}\n\t\n\n{\"n\":2}\n",
		"malformed":       "{\"n\":1}\n{not json}\n{\"n\":2}\n",
		"overlong":        "{\"n\":1}\n{\"s\":\"" + strings.Repeat("x", maxLine) + "\"}\n{\"n\":2}\n",
		"overlong first":  "{\"s\":\"" + strings.Repeat("x", maxLine) + "\"}\n{\"n\":2}\n",
		"exactly maxLine": "{\"s\":\"" + strings.Repeat("x", maxLine-9) + "\"}\n{\"n\":2}\n",
		"utf-8":           "{\"s\":\"héllo wörld ✓ 日本語 🙂\"}\n{\"s\":\"Ünïcödé\"}\n",
	}
	for name, in := range files {
		var want []seen
		wantSt, rerr, ferr := scan(strings.NewReader(in), 0, maxLine, 16, record(&want)) // a tiny buffer: long lines are assembled
		if rerr != nil || ferr != nil {
			t.Fatal(rerr, ferr)
		}
		slices.Reverse(want)
		for block := 1; block <= len(in)+1; block++ {
			var got []seen
			st, rerr, ferr := scanBack(strings.NewReader(in), int64(len(in)), block, maxLine, record(&got))
			if rerr != nil || ferr != nil {
				t.Fatalf("%s, block %d: %v %v", name, block, rerr, ferr)
			}
			if !reflect.DeepEqual(got, want) || st != wantSt {
				t.Fatalf("%s, block %d:\n got %+v %+v\nwant %+v %+v", name, block, got, st, want, wantSt)
			}
		}
	}
}

// record collects lines, rejecting what is not JSON-looking as a caller would.
func record(out *[]seen) func(line []byte, start, end int64) error {
	return func(line []byte, start, end int64) error {
		if line[0] != '{' || strings.HasPrefix(string(line), "{not") {
			return ErrSkip
		}
		*out = append(*out, seen{string(line), start, end})
		return nil
	}
}

func TestScanBackStopsAndReportsErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := ScanBack(confined.Root(dir), "nope.jsonl", 10, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	path := filepath.Join(dir, "x.jsonl")
	os.WriteFile(path, []byte("{\"n\":1}\n{\"n\":2}\n{\"n\":3}\n"), 0o644)
	var got []string
	st, err := ScanBack(dirOf(path), filepath.Base(path), 24, func(line []byte, _, _ int64) error {
		got = append(got, string(line))
		if len(got) == 2 {
			return fmt.Errorf("enough: %w", ErrStop)
		}
		return nil
	})
	if err != nil || fmt.Sprint(got) != `[{"n":3} {"n":2}]` || st.Lines != 1 {
		t.Fatalf("stopped after %v, stats %+v, err %v", got, st, err)
	}
	// end short of the file's size reads as if the file ended there.
	got = nil
	if _, err := ScanBack(dirOf(path), filepath.Base(path), 16, func(line []byte, _, _ int64) error { got = append(got, string(line)); return nil }); err != nil ||
		fmt.Sprint(got) != `[{"n":2} {"n":1}]` {
		t.Fatalf("up to byte 16: %v, %v", got, err)
	}
	boom := errors.New("boom")
	if _, err := ScanBack(dirOf(path), filepath.Base(path), 24, func([]byte, int64, int64) error { return boom }); err != boom {
		t.Fatalf("fn's error: %v", err)
	}
	// An end past the file means the file shrank under the caller: say so.
	if _, err := ScanBack(dirOf(path), filepath.Base(path), 1000, func([]byte, int64, int64) error { return nil }); err == nil ||
		!strings.Contains(err.Error(), path) {
		t.Fatalf("end past the file: %v", err)
	}
}
