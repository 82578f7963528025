package jsonl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/confined"
)

type rec struct {
	G int    `json:"g"`
	N int    `json:"n"`
	S string `json:"s"`
}

func TestConcurrentAppendsMakeWholeLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	f, err := Open(dirOf(path), filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	const goroutines, per = 16, 200
	type span struct{ start, end int64 }
	spans := make([][]span, goroutines)
	var wg sync.WaitGroup
	for g := range goroutines {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := range per {
				// Vary sizes so some lines cross the reader's buffer.
				s := strings.Repeat(string(rune('a'+g)), (n*37)%5000)
				start, end, err := f.Append(rec{g, n, s})
				if err != nil {
					t.Error(err)
					return
				}
				spans[g] = append(spans[g], span{start, end})
			}
		}()
	}
	wg.Wait()
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for g, ss := range spans {
		for n, sp := range ss {
			var r rec
			line := data[sp.start:sp.end]
			if line[len(line)-1] != '\n' {
				t.Fatalf("line %d/%d at [%d,%d) does not end with a newline", g, n, sp.start, sp.end)
			}
			if err := json.Unmarshal(line, &r); err != nil || r.G != g || r.N != n {
				t.Fatalf("offsets [%d,%d) for %d/%d point at %q (%v)", sp.start, sp.end, g, n, line, err)
			}
		}
	}
	seen := 0
	st, err := Scan(dirOf(path), filepath.Base(path), 0, func(line []byte, start, end int64) error {
		var r rec
		if err := json.Unmarshal(line, &r); err != nil {
			t.Errorf("line at %d is not whole: %v", start, err)
		}
		if want := spans[r.G][r.N]; want.start != start || want.end != end {
			t.Errorf("Scan gave [%d,%d), Append gave [%d,%d)", start, end, want.start, want.end)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != goroutines*per || st.Lines != seen || st.End != int64(len(data)) || st.TornTail != 0 {
		t.Fatalf("saw %d lines, stats %+v, file %d bytes", seen, st, len(data))
	}
}

func TestTornLastLineIsHealedNotRewritten(t *testing.T) {
	path := filepath.Join(t.TempDir(), "context.jsonl")
	prefix := []byte("{\"n\":1}\n{\"n\":2}\n{\"n\":3,\"s\":\"half wr")
	if err := os.WriteFile(path, prefix, 0o644); err != nil {
		t.Fatal(err)
	}

	var got []string
	st, err := Scan(dirOf(path), filepath.Base(path), 0, func(line []byte, _, _ int64) error {
		got = append(got, string(line))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || st.TornTail != int64(len(`{"n":3,"s":"half wr`)) || st.End != 16 {
		t.Fatalf("lines %q, stats %+v", got, st)
	}

	f, err := Open(dirOf(path), filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	start, end, err := f.Append(rec{N: 4})
	if err != nil {
		t.Fatal(err)
	}
	start2, _, err := f.Append(rec{N: 5})
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	if !bytes.HasPrefix(data, prefix) {
		t.Fatalf("the torn bytes were changed:\n%q", data)
	}
	if start != int64(len(prefix))+1 || data[start-1] != '\n' || string(data[start:end]) != "{\"g\":0,\"n\":4,\"s\":\"\"}\n" {
		t.Fatalf("new line at [%d,%d) = %q in %q", start, end, data[start:end], data)
	}
	if start2 != end {
		t.Fatalf("the second append healed again: starts at %d, first ended at %d", start2, end)
	}

	got = nil
	st, err = Scan(dirOf(path), filepath.Base(path), 0, func(line []byte, _, _ int64) error {
		var r rec
		if err := json.Unmarshal(line, &r); err != nil {
			return fmt.Errorf("%w: %v", ErrSkip, err)
		}
		got = append(got, fmt.Sprint(r.N))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(got, ",") != "1,2,4,5" || st.Malformed != 1 || st.TornTail != 0 {
		t.Fatalf("after healing: lines %v, stats %+v", got, st)
	}
}

func TestScanFromOffset(t *testing.T) {
	path := filepath.Join(t.TempDir(), "log.jsonl")
	f, err := Open(dirOf(path), filepath.Base(path))
	if err != nil {
		t.Fatal(err)
	}
	var ends []int64
	for n := range 5 {
		_, end, err := f.Append(rec{N: n})
		if err != nil {
			t.Fatal(err)
		}
		ends = append(ends, end)
	}
	var got []int
	st, err := Scan(dirOf(path), filepath.Base(path), ends[1], func(line []byte, start, end int64) error {
		var r rec
		json.Unmarshal(line, &r)
		got = append(got, r.N)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(got) != "[2 3 4]" || st.End != ends[4] {
		t.Fatalf("from %d got %v, stats %+v", ends[1], got, st)
	}
	// Nothing new: an empty scan that ends where it started.
	st, err = Scan(dirOf(path), filepath.Base(path), st.End, func([]byte, int64, int64) error { t.Error("called"); return nil })
	if err != nil || st.End != ends[4] || st.Lines != 0 {
		t.Fatalf("scan at the end: %+v, %v", st, err)
	}
	f.Close()
}

func TestScanStopsOnCallbackErrorAndReportsMissingFile(t *testing.T) {
	dir := t.TempDir()
	if _, err := Scan(confined.Root(dir), "nope.jsonl", 0, nil); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing file: %v", err)
	}
	path := filepath.Join(dir, "x.jsonl")
	os.WriteFile(path, []byte("{}\n{}\n"), 0o644)
	boom := errors.New("boom")
	n := 0
	_, err := Scan(dirOf(path), filepath.Base(path), 0, func([]byte, int64, int64) error { n++; return boom })
	if err != boom || n != 1 {
		t.Fatalf("err %v after %d calls", err, n)
	}
}

func TestLargeLines(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and reads a 65 MB line")
	}
	path := filepath.Join(t.TempDir(), "big.jsonl")
	big := strings.Repeat("A", 65<<20) // a 65 MB "image"
	var buf bytes.Buffer
	buf.WriteString("{\"n\":1}\n")
	buf.WriteString("{\"img\":\"" + big + "\"}\n")
	buf.WriteString("\n   \n{\"n\":2}\n")
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var sizes []int
	st, err := Scan(dirOf(path), filepath.Base(path), 0, func(line []byte, start, end int64) error {
		sizes = append(sizes, len(line))
		if int64(len(line))+1 != end-start {
			t.Errorf("line of %d bytes at [%d,%d)", len(line), start, end)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(sizes) != fmt.Sprint([]int{7, len(big) + 10, 7}) || st.Blank != 2 || st.End != int64(buf.Len()) {
		t.Fatalf("sizes %v, stats %+v", sizes, st)
	}
}

func TestOverlongLinesAreSkippedUnread(t *testing.T) {
	const max = 100 << 10 // larger than the reader's buffer, so the long path is taken
	in := "{\"n\":1}\n" + "{\"x\":\"" + strings.Repeat("B", max) + "\"}\n" +
		"{\"y\":\"" + strings.Repeat("C", max-20) + "\"}\n" + "{\"n\":2}\n" + strings.Repeat("D", max*2)
	var sizes []int
	st, rerr, ferr := scan(strings.NewReader(in), 0, max, maxReadBuffer, func(line []byte, start, end int64) error {
		sizes = append(sizes, len(line))
		return nil
	})
	if rerr != nil || ferr != nil {
		t.Fatal(rerr, ferr)
	}
	if fmt.Sprint(sizes) != fmt.Sprint([]int{7, max - 12, 7}) || st.TooLong != 1 || st.TornTail != max*2 ||
		st.End != int64(len(in)-max*2) {
		t.Fatalf("sizes %v, stats %+v", sizes, st)
	}
}

func TestAppendDoesNotEscapeHTML(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	f, _ := Open(dirOf(path), filepath.Base(path))
	v := map[string]string{"t": `<@U1> & "q" \u003c`}
	if _, _, err := f.Append(v); err != nil {
		t.Fatal(err)
	}
	f.Close()
	data, _ := os.ReadFile(path)
	if want := `{"t":"<@U1> & \"q\" \\u003c"}` + "\n"; string(data) != want {
		t.Fatalf("got %s want %s", data, want)
	}
	var back map[string]string
	if err := json.Unmarshal(data, &back); err != nil || back["t"] != v["t"] {
		t.Fatalf("round trip: %q %v", back["t"], err)
	}
}

func TestUnescapeHTMLMatchesJSON(t *testing.T) {
	for _, s := range []string{"", "plain", "<>&", `\`, `\\u003c`, "\\\\\\<", "a\u2028b", "\x00<\x1f", `"\u0026"`} {
		b, _ := json.Marshal(s)
		out := unescapeHTML(append([]byte(nil), b...))
		var back string
		if err := json.Unmarshal(out, &back); err != nil || back != s {
			t.Errorf("%q: %s -> %s -> %q (%v)", s, b, out, back, err)
		}
		if bytes.Contains(out, []byte(`\u003c`)) && !strings.Contains(s, `\u003c`) {
			t.Errorf("%q: still escaped: %s", s, out)
		}
	}
}

func TestSyncAndFlusher(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.jsonl")
	f, _ := Open(dirOf(path), filepath.Base(path))
	fl := NewFlusher(5 * time.Millisecond)
	fl.Add(f)
	f.Append(rec{N: 1})
	deadline := time.Now().Add(5 * time.Second)
	for {
		f.mu.Lock()
		dirty := f.dirty
		f.mu.Unlock()
		if !dirty {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the flusher never synced the file")
		}
		time.Sleep(time.Millisecond)
	}
	fl.Remove(f)
	f.Append(rec{N: 2})
	if err := f.Sync(); err != nil {
		t.Fatal(err)
	}
	fl.Close()
	fl.Close() // idempotent
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Sync(); err != nil {
		t.Fatalf("sync after close: %v", err)
	}
	if _, _, err := f.Append(rec{}); !errors.Is(err, os.ErrClosed) {
		t.Fatalf("append after close: %v", err)
	}
}

func TestOpenRejectsDirectoryAndLink(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(confined.Root(dir), "sub"); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("opened a directory: %v", err)
	}
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("x\n"), 0o600)
	if err := os.Symlink(secret, filepath.Join(dir, "log.jsonl")); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(confined.Root(dir), "log.jsonl"); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("appended through a link: %v", err)
	}
	if _, err := Scan(confined.Root(dir), "log.jsonl", 0, func([]byte, int64, int64) error { return nil }); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("read through a link: %v", err)
	}
	if b, _ := os.ReadFile(secret); string(b) != "x\n" {
		t.Fatalf("the link's target changed: %q", b)
	}
}

// dirOf returns the confined directory holding the file at path, for the tests that name
// files by path.
func dirOf(path string) confined.Dir { return confined.Root(filepath.Dir(path)) }
