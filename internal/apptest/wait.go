package apptest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"sync"
	"testing"
	"time"
)

// HangGuard bounds how long a test waits for mom before it gives up and shows what it saw. It
// guards against hangs; no test asserts on timing.
const HangGuard = 60 * time.Second

// Eventually waits until cond holds; what names the wait in a failure.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(HangGuard)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// WaitForFile waits until path exists.
func WaitForFile(t testing.TB, path string) {
	t.Helper()
	Eventually(t, path+" to appear", func() bool {
		_, err := os.Stat(path)
		return err == nil
	})
}

// AwaitMessage waits with wait (a fake's WaitFor, or Eventually) until a message of list()
// matches, and returns it; what names the wait in a failure.
func AwaitMessage[M any](t testing.TB, wait func(testing.TB, string, func() bool), what string, list func() []M, match func(M) bool) M {
	t.Helper()
	var found M
	wait(t, what, func() bool {
		for _, m := range list() {
			if match(m) {
				found = m
				return true
			}
		}
		return false
	})
	return found
}

// JSONLines reads a JSONL file into generic objects, failing on any line that does not parse.
func JSONLines(t testing.TB, path string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var v map[string]any
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: line %d does not parse: %v\n%s", path, len(lines)+1, err, sc.Bytes())
		}
		lines = append(lines, v)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return lines
}

// SyncBuffer is a bytes.Buffer safe for mom's writes and the test's reads.
type SyncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (s *SyncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// String is everything written so far.
func (s *SyncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
