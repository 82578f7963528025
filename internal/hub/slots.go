package hub

import (
	"slices"
	"sync"
	"time"
)

// slots is the global limit on concurrent runs (config.json's "maxConcurrentRuns"). Every
// run, in any channel, holds a slot from just before it starts until its reply is finished.
//
// Who goes next when all slots are taken:
//
//   - Runs that wait for a slot stand in one line, in the order they started waiting, and a
//     freed slot goes to the first of them. A run claims its slot when it becomes the first
//     in its channel's own queue (on arrival, or when the run before it ends) and gives it
//     back when its reply is finished, so a channel with many queued runs gets one run per
//     turn and then lines up again at the back: it cannot jump ahead of other channels, and
//     since a channel runs one run at a time it never holds more than one slot.
//   - Wake-ups (the scheduled and external event files of package events) may hold at most
//     wakeUpMax slots: three quarters, rounded down, and always at least one fewer than
//     there are slots (with a single slot, wake-ups and people share it). While wake-ups
//     hold their share, a wake-up at the head of the line stays there and the first
//     person's run behind it goes first. So however many wake-ups flood in, the other
//     quarter of the slots only ever goes to people's runs. People do not otherwise overtake
//     wake-ups, so busy people do not starve wake-ups either.
//
// Reserving a share rather than letting people always go first keeps a slot free for a
// person even when every wake-up runs long; the price is that during a flood of wake-ups
// alone a quarter of the slots stay idle, which is what a flood should get anyway.
type slots struct {
	mu        sync.Mutex
	limit     int
	wakeUpMax int
	running   int // slots held
	wakeUps   int // slots held by wake-ups
	line      []*ticket
}

// ticket is one run's claim on a slot. It is taken when the run becomes the first in its
// channel's line, so channels are served in the order their runs arrived.
type ticket struct {
	wakeUp bool
	taken  time.Time
	// ready is closed when the slot is granted, dropped when the claim is cancelled while in
	// line; never both.
	ready, dropped chan struct{}

	// waited is how long it took from taken to granted; set before ready is closed.
	waited time.Duration

	// Guarded by slots.mu:
	held   bool // granted and not yet given back
	inLine bool
}

// newSlots returns a limit of n concurrent runs (at least 1).
func newSlots(n int) *slots {
	n = max(n, 1)
	return &slots{limit: n, wakeUpMax: wakeUpShare(n)}
}

// wakeUpShare is how many of n slots wake-ups may hold: n minus a quarter (rounded up), but
// at least one.
func wakeUpShare(n int) int {
	return max(n-(n+3)/4, 1)
}

// take claims a slot for a run (a wake-up's when wakeUp is set). The ticket is ready at once
// when a slot is free for it; otherwise it is in line and ready is closed when its turn comes.
// Every ticket is given back with leave.
func (s *slots) take(wakeUp bool) *ticket {
	t := &ticket{wakeUp: wakeUp, taken: time.Now(), ready: make(chan struct{}), dropped: make(chan struct{}), inLine: true}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.line = append(s.line, t)
	s.serveLocked()
	return t
}

// cancel takes t out of the line and closes its dropped channel, if it is still waiting. It
// reports whether it was: false means t has its slot already (or was given back).
func (s *slots) cancel(t *ticket) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !t.inLine {
		return false
	}
	s.removeLocked(t)
	close(t.dropped)
	return true
}

// leave gives back t's slot, or takes t out of the line when it never got one. It returns how
// long t waited for its slot, or until now when it never got one.
func (s *slots) leave(t *ticket) time.Duration {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.held {
		t.held = false
		s.running--
		if t.wakeUp {
			s.wakeUps--
		}
	} else if t.inLine {
		s.removeLocked(t)
	}
	s.serveLocked()
	if !t.granted() {
		return time.Since(t.taken)
	}
	return t.waited // written before ready was closed
}

// removeLocked takes t, which is in line, out of it. s.mu is held.
func (s *slots) removeLocked(t *ticket) {
	t.inLine = false
	if i := slices.Index(s.line, t); i >= 0 {
		s.line = slices.Delete(s.line, i, i+1)
	}
}

// load returns how many slots are held and how many runs wait for one, for the log.
func (s *slots) load() (running, waiting int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.running, len(s.line)
}

// serveLocked hands free slots to the line in order, passing over wake-ups while wake-ups
// hold their share. s.mu is held.
func (s *slots) serveLocked() {
	if s.running >= s.limit {
		return
	}
	kept := s.line[:0]
	for _, t := range s.line {
		if s.running >= s.limit || t.wakeUp && s.wakeUps >= s.wakeUpMax {
			kept = append(kept, t)
			continue
		}
		t.held, t.inLine, t.waited = true, false, time.Since(t.taken)
		s.running++
		if t.wakeUp {
			s.wakeUps++
		}
		close(t.ready)
	}
	clear(s.line[len(kept):]) // let granted tickets go
	s.line = kept
}

// waitedFor returns how long t waited for its slot; only once it has it.
func (t *ticket) waitedFor() time.Duration {
	<-t.ready
	return t.waited
}

// granted reports whether t has its slot.
func (t *ticket) granted() bool {
	select {
	case <-t.ready:
		return true
	default:
		return false
	}
}
