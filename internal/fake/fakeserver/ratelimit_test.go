package fakeserver

import (
	"testing"
	"time"
)

// TestLimits: the next n calls are refused; a call before the last refusal's wait is over is
// early and refused again without using up one of the n; a call after it passes.
func TestLimits(t *testing.T) {
	var l Limits
	t0 := time.Unix(1_700_000_000, 0)
	if _, refused := l.Check("send", t0); refused {
		t.Fatal("a name without limits was refused")
	}
	l.Set("send", 2, time.Second)
	steps := []struct {
		at      time.Duration
		refused bool
		early   time.Duration
	}{
		{0, true, 0}, // the first of the two
		{400 * time.Millisecond, true, 600 * time.Millisecond}, // too early: refused, not counted
		{1400 * time.Millisecond, true, 0},                     // waited: the second of the two
		{2400 * time.Millisecond, false, 0},                    // waited, and none are left
		{2500 * time.Millisecond, false, 0},                    // no refusal to wait for
	}
	for _, s := range steps {
		r, refused := l.Check("send", t0.Add(s.at))
		if refused != s.refused || r.Early != s.early || refused && r.Wait != time.Second {
			t.Errorf("at %v: refused %v, %+v; want %v, early %v", s.at, refused, r, s.refused, s.early)
		}
	}
	if _, refused := l.Check("other", t0); refused {
		t.Error("a limit on one name refused another")
	}
}

// TestLimitsSetKeepsTheWaitAlreadyAnnounced: setting new limits does not forgive a client for
// ignoring a wait it was already told.
func TestLimitsSetKeepsTheWaitAlreadyAnnounced(t *testing.T) {
	var l Limits
	t0 := time.Unix(1_700_000_000, 0)
	l.Set("send", 1, time.Second)
	l.Check("send", t0)
	l.Set("send", 0, time.Second)
	if r, refused := l.Check("send", t0.Add(100*time.Millisecond)); !refused || r.Early != 900*time.Millisecond {
		t.Errorf("refused %v, %+v; want the early call caught", refused, r)
	}
}
