package fakeserver

import (
	"bytes"
	"context"
	"errors"
	"mime/multipart"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestWaitWakesOnNotify: a waiter whose condition turns true under another goroutine's lock
// returns once that goroutine notifies, and a violation wakes it too.
func TestWaitWakesOnNotify(t *testing.T) {
	r := NewRecorder("fakex", time.Minute)
	// The deadline only guards against a hang; nothing here is timed.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var mu sync.Mutex
	n := 0
	done := make(chan error, 1)
	go func() {
		done <- r.Wait(ctx, "n to reach 3", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return n >= 3
		})
	}()
	for range 3 {
		mu.Lock()
		n++
		r.Notify()
		mu.Unlock()
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	woke := make(chan error, 1)
	go func() {
		woke <- r.Wait(ctx, "a violation", func() bool { return len(r.Violations()) == 1 })
	}()
	r.Violate("bad %s", "thing")
	if err := <-woke; err != nil {
		t.Fatal(err)
	}
	if got := r.Violations(); len(got) != 1 || got[0] != "bad thing" {
		t.Errorf("Violations() = %q", got)
	}
}

// TestWaitNamesWhatItAwaited: a wait that ends with its context says what it waited for and
// why it stopped.
func TestWaitNamesWhatItAwaited(t *testing.T) {
	r := NewRecorder("fakex", time.Minute)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := r.Wait(ctx, "the moon", func() bool { return false })
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "fakex: waiting for the moon") {
		t.Errorf("Wait = %v", err)
	}
}

func TestViolationsIsACopy(t *testing.T) {
	r := NewRecorder("fakex", time.Minute)
	r.Violate("one")
	v := r.Violations()
	v[0] = "changed"
	if got := r.Violations(); got[0] != "one" {
		t.Errorf("the caller changed the recorded violations: %q", got)
	}
}

func TestReadParts(t *testing.T) {
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	if err := mw.WriteField("caption", "hi"); err != nil {
		t.Fatal(err)
	}
	fw, err := mw.CreateFormFile("document", "a b.txt")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write([]byte("content"))
	mw.Close()

	parts, err := ReadParts(&body, mw.Boundary())
	if err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 || parts[0].Name != "caption" || parts[0].FileName != "" || string(parts[0].Data) != "hi" ||
		parts[1].Name != "document" || parts[1].FileName != "a b.txt" || parts[1].ContentType != "application/octet-stream" ||
		string(parts[1].Data) != "content" {
		t.Errorf("parts = %+v", parts)
	}
}

func TestReadPartsRefusesMalformedBodies(t *testing.T) {
	for _, tt := range []struct{ name, body, boundary, want string }{
		{"no boundary", "--x\r\n\r\nhi\r\n--x--\r\n", "", "no boundary in the Content-Type"},
		{"cut off", "--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nhi", "x", "EOF"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := ReadParts(strings.NewReader(tt.body), tt.boundary); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("ReadParts = %v; want an error saying %q", err, tt.want)
			}
		})
	}
}
