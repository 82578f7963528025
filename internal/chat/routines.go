package chat

import (
	"context"
	"fmt"
	"sync"
)

// Routines are the goroutines an adapter runs between Start and Stop: the platform
// connection and whatever else keeps it going. The zero value is ready to use.
type Routines struct {
	mu     sync.Mutex
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// Begin returns the context the goroutines run in. It is not cancelled with ctx, which bounds
// only Start's connecting; Stop (or Abort) ends it.
func (r *Routines) Begin(ctx context.Context) context.Context {
	run, cancel := context.WithCancel(context.WithoutCancel(ctx))
	r.mu.Lock()
	r.cancel = cancel
	r.mu.Unlock()
	return run
}

// Go runs fn on a goroutine that Stop waits for.
func (r *Routines) Go(fn func()) {
	r.wg.Add(1)
	go func() { defer r.wg.Done(); fn() }()
}

// Abort ends the goroutines and waits for them, for a Start that fails half way.
func (r *Routines) Abort() {
	r.end()
	r.wg.Wait()
}

// Stop ends the goroutines and waits for them and for the work queued on lanes (nil: none),
// or until ctx ends; who names the adapter in that error.
func (r *Routines) Stop(ctx context.Context, who string, lanes *Lanes) error {
	r.end()
	done := make(chan struct{})
	go func() {
		r.wg.Wait()
		if lanes != nil {
			lanes.Wait()
		}
		close(done)
	}()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("%s did not stop in time: %w", who, ctx.Err())
	}
}

func (r *Routines) end() {
	r.mu.Lock()
	cancel := r.cancel
	r.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}
