package web

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// hangGuard bounds waits for the file system's notifications; no test asserts on how long
// they take.
const hangGuard = 30 * time.Second

// listedWakeUps asks the events handler, as the page does.
func listedWakeUps(t *testing.T, a *Adapter) []wakeUpInfo {
	t.Helper()
	rec := httptest.NewRecorder()
	a.listWakeUps(rec, httptest.NewRequest(http.MethodGet, "/api/events", nil))
	var body struct{ Events []wakeUpInfo }
	if err := json.Unmarshal(rec.Body.Bytes(), &body); rec.Code != http.StatusOK || err != nil {
		t.Fatalf("GET /api/events: %d %v\n%s", rec.Code, err, rec.Body)
	}
	return body.Events
}

// writeFile writes a file, making its folder.
func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestEventsListsSetAsideFiles: files mom moved into .invalid/ stay listed with the reason
// from the note beside them, after the events, as `mom events` shows them.
func TestEventsListsSetAsideFiles(t *testing.T) {
	a, _ := newTestAdapter(t)
	a.opts.Adapters = []string{"web"}
	dir := a.wakeUpDir().Path()
	writeFile(t, filepath.Join(dir, "later.json"), `{"type": "one-shot", "channelId": "web/general", "text": "hi", "at": "2031-03-14T15:30:00+01:00"}`)
	writeFile(t, filepath.Join(dir, ".invalid", "bad.json"), `{"type": "one-shot"}`)
	writeFile(t, filepath.Join(dir, ".invalid", "bad.json.error.txt"),
		"bad.json was moved here on 2026-01-01T00:00:00Z because it is not a valid event:\nmissing \"channelId\", \"text\"\n")
	writeFile(t, filepath.Join(dir, ".invalid", "mute.json"), `{}`)
	want := []wakeUpInfo{
		{File: "later.json", Type: "one-shot", Channel: "web/general", Text: "hi", Next: []string{"2031-03-14T15:30:00+01:00"}},
		{File: ".invalid/bad.json", Next: []string{}, Error: `set aside: missing "channelId", "text"`},
		{File: ".invalid/mute.json", Next: []string{}, Error: "set aside: (no note says why)"},
	}
	if got := listedWakeUps(t, a); !reflect.DeepEqual(got, want) {
		t.Errorf("events =\n%+v\nwant\n%+v", got, want)
	}
}

// TestEventsFrameWhenTheDirectoryChanges: every browser is told when a file in
// workspace/events is added or removed, and when one is set aside into .invalid/ (a folder
// that appears only then), so side bars reload the list by themselves.
func TestEventsFrameWhenTheDirectoryChanges(t *testing.T) {
	a, _ := newTestAdapter(t)
	w, err := a.watchWakeUps()
	if err != nil {
		t.Fatal(err)
	}
	defer w.stop()
	c := a.live.subscribe()
	drain(t, c) // hello
	dir := a.wakeUpDir().Path()
	// next waits for the frame that follows a change. A change seen in two bursts may send
	// two frames, which does no harm; frames left from a change before are dropped first.
	next := func(what string, change func()) {
		t.Helper()
		drain(t, c)
		change()
		select {
		case b := <-c.send:
			if string(b) != `{"type":"events"}` {
				t.Errorf("after %s: %s", what, b)
			}
		case <-time.After(hangGuard):
			t.Fatalf("no events frame after %s", what)
		}
	}
	next("a file was written", func() { writeFile(t, filepath.Join(dir, "a.json"), `{}`) })
	next("a file was removed", func() {
		if err := os.Remove(filepath.Join(dir, "a.json")); err != nil {
			t.Fatal(err)
		}
	})
	next("the invalid folder appeared", func() { writeFile(t, filepath.Join(dir, ".invalid", "b.json"), `{}`) })
	next("a file was set aside", func() { writeFile(t, filepath.Join(dir, ".invalid", "c.json"), `{}`) })
}
