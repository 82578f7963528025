package web

import (
	"encoding/json"
	"testing"
)

// TestReplayOfARunInProgress: a browser that connects in the middle of a run gets the run so
// far, its text deltas merged, and nothing of runs that ended.
func TestReplayOfARunInProgress(t *testing.T) {
	l := newLive()
	l.broadcast(frame{Type: "run_start", Channel: "ops", Run: "old"})
	l.broadcast(frame{Type: "run_end", Channel: "ops", Run: "old"})
	l.broadcast(frame{Type: "run_start", Channel: "general", Run: "r1"})
	for _, d := range []string{"Hel", "lo ", "there"} {
		l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: d})
	}
	l.broadcast(frame{Type: "tool_start", Channel: "general", Run: "r1", ID: "t1", Text: "look"})
	l.broadcast(frame{Type: "text", Channel: "general", Run: "r1", Text: "more"})
	l.broadcast(frame{Type: "text", Channel: "general", Run: "other", Text: "not this run"})

	c := l.subscribe()
	var got []frame
	for len(c.send) > 0 {
		var f frame
		if err := json.Unmarshal(<-c.send, &f); err != nil {
			t.Fatal(err)
		}
		got = append(got, f)
	}
	want := []frame{{Type: "hello"}, {Type: "run_start", Channel: "general", Run: "r1"},
		{Type: "text", Channel: "general", Run: "r1", Text: "Hello there"},
		{Type: "tool_start", Channel: "general", Run: "r1", ID: "t1", Text: "look"},
		{Type: "text", Channel: "general", Run: "r1", Text: "more"}}
	if len(got) != len(want) {
		t.Fatalf("replay = %+v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("frame %d = %+v, want %+v", i, got[i], want[i])
		}
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
