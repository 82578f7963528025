package web

import (
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// drain reads every frame queued for c.
func drain(t *testing.T, c *client) []frame {
	t.Helper()
	var got []frame
	for len(c.send) > 0 {
		var f frame
		if err := json.Unmarshal(<-c.send, &f); err != nil {
			t.Fatal(err)
		}
		got = append(got, f)
	}
	return got
}

// TestReplayOfARunInProgress: a browser that connects in the middle of a run gets the run so
// far, its text deltas merged, where the run began in the log, and nothing of runs that
// ended; then hello, its cue to load the history.
func TestReplayOfARunInProgress(t *testing.T) {
	l := newLive()
	from := int64(1234)
	l.broadcast(frame{Type: "run_start", Channel: "ops", Run: "old"})
	l.broadcast(frame{Type: "run_end", Channel: "ops", Run: "old"})
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1", From: &from})
	for _, d := range []string{"Hel", "lo ", "there"} {
		l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: d})
	}
	l.broadcast(frame{Type: "tool_start", Channel: "general", Run: "r1", ID: "t1", Text: "look"})
	l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: "more"})
	l.broadcast(frame{Type: "text", Channel: "general", Run: "other", Text: "not this run"})

	c := l.subscribe()
	got := drain(t, c)
	want := []frame{{Type: "run_start", Channel: "general", Run: "r1", From: &from},
		{Type: "text", Channel: "general", Run: "r1", Text: "Hello there"},
		{Type: "tool_start", Channel: "general", Run: "r1", ID: "t1", Text: "look"},
		{Type: "text", Channel: "general", Run: "r1", Text: "more"},
		{Type: "hello"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("replay =\n%+v\nwant\n%+v", got, want)
	}
	if !l.running("general") || l.running("ops") {
		t.Errorf("running: general %v, ops %v", l.running("general"), l.running("ops"))
	}
	l.close()
	select {
	case <-c.gone:
	default:
		t.Error("close left a browser connected")
	}
}

// TestReplayTooLongKeepsAnswersInTheHistory: a run whose frames outgrew the replay is
// replayed without its from, so the page takes its answers from the history rather than
// lose the ones the replay left out.
func TestReplayTooLongKeepsAnswersInTheHistory(t *testing.T) {
	l := newLive()
	from := int64(99)
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1", From: &from})
	for range maxReplay {
		l.broadcast(frame{Type: "status", Channel: "general", Run: "r1", Text: "Compacting context…"})
	}
	got := drain(t, l.subscribe())
	if len(got) != maxReplay+1 || got[0].Type != "run_start" || got[0].From != nil || got[len(got)-1].Type != "hello" {
		t.Errorf("%d frames, the first %+v, the last %+v", len(got), got[0], got[len(got)-1])
	}
}

// TestEachDeltaReachesABrowserOnce: browsers connect while a run streams; each gets every
// delta from the moment it connected exactly once, in the replay or live, never both, so
// what it draws is the answer as written.
func TestEachDeltaReachesABrowserOnce(t *testing.T) {
	l := newLive()
	from := int64(0)
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1", From: &from})
	var answer strings.Builder
	deltas := make([]string, 500)
	for i := range deltas {
		deltas[i] = string(rune('a'+i%26)) + " "
		answer.WriteString(deltas[i])
	}
	var wg sync.WaitGroup
	clients := make(chan *client, 20)
	wg.Go(func() {
		for range cap(clients) {
			clients <- l.subscribe()
		}
		close(clients)
	})
	for _, d := range deltas {
		l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: d})
	}
	wg.Wait()
	for c := range clients {
		var text strings.Builder
		for _, f := range drain(t, c) {
			text.WriteString(f.Text)
		}
		if text.String() != answer.String() {
			t.Errorf("a browser drew %q, want %q", text.String(), answer.String())
		}
	}
}

// TestSlowBrowserIsDroppedAndReconnectsToTheWholeRun: a browser that stops reading is
// disconnected rather than allowed to hold frames back; when it connects again, the replay
// has the run whole, where it began in the log, and then hello.
func TestSlowBrowserIsDroppedAndReconnectsToTheWholeRun(t *testing.T) {
	l := newLive()
	from := int64(5)
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1", From: &from})
	slow := l.subscribe()
	for range clientQueue + 1 {
		l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: "x"})
	}
	select {
	case <-slow.gone:
	default:
		t.Fatal("a browser that read nothing is still connected")
	}
	got := drain(t, l.subscribe())
	want := []frame{{Type: "run_start", Channel: "general", Run: "r1", From: &from},
		{Type: "text", Channel: "general", Run: "r1", Text: strings.Repeat("x", clientQueue+1)},
		{Type: "hello"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("after reconnecting: %+v", got)
	}
}
