package fakeserver

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"
)

// Recorder is the part of a fake server that tests wait on: a signal on every change of the
// server's state, and the list of protocol mistakes the client made. A fake embeds a
// *Recorder, which gives it Wait, WaitFor and Violations. It is safe for concurrent use and
// keeps its own lock, so a fake may call Notify and Violate with or without its own lock held;
// it never calls back into the fake.
type Recorder struct {
	name     string        // the fake's package name, for errors
	patience time.Duration // how long WaitFor waits

	mu         sync.Mutex
	changed    chan struct{} // closed and replaced on every state change
	violations []string
}

// NewRecorder returns a Recorder for the fake named name (as in "fakeslack"), whose WaitFor
// waits up to patience before it fails the test.
func NewRecorder(name string, patience time.Duration) *Recorder {
	return &Recorder{name: name, patience: patience, changed: make(chan struct{})}
}

// Notify wakes every waiter. A fake calls it after each change of its state, once the change
// is visible to conditions that take the fake's lock.
func (r *Recorder) Notify() {
	r.mu.Lock()
	defer r.mu.Unlock()
	close(r.changed)
	r.changed = make(chan struct{})
}

// Changed returns a channel that is closed at the next Notify. A fake that waits for its own
// state (a long poll) takes it, under its lock, before it lets go of the lock to wait.
func (r *Recorder) Changed() <-chan struct{} {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.changed
}

// Violate records a protocol mistake by the client, worded for the person reading the
// failed test, and wakes every waiter: a violation is a change of state too.
func (r *Recorder) Violate(format string, args ...any) {
	r.mu.Lock()
	r.violations = append(r.violations, fmt.Sprintf(format, args...))
	r.mu.Unlock()
	r.Notify()
}

// Violations returns the protocol mistakes the client made so far, oldest first. Tests assert
// it is empty; the fake's package documentation lists what it counts.
func (r *Recorder) Violations() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.violations)
}

// Wait blocks until cond returns true or ctx ends, and then returns an error that names what
// was awaited. cond is evaluated at once and again after every Notify, without any lock held,
// so it may call any method of the fake; a condition on anything else (a clock, the client's
// own state) needs its own wait. Wait suits code without a testing.TB.
func (r *Recorder) Wait(ctx context.Context, what string, cond func() bool) error {
	for {
		changed := r.Changed()
		if cond() {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("%s: waiting for %s: %w", r.name, what, ctx.Err())
		}
	}
}

// WaitFor is Wait for tests: it waits up to the fake's DefaultWait and fails t naming what
// was awaited.
func (r *Recorder) WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), r.patience)
	defer cancel()
	if err := r.Wait(ctx, what, cond); err != nil {
		t.Fatal(err)
	}
}
