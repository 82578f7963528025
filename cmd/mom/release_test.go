package main

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

// TestQuietSpellReleasesOnceAfterABurst: memory is given back once start-up has settled, and
// once quietFor after a burst of allocation ends; not while work goes on, not after a burst
// too small to matter, and not again until more work has been done.
func TestQuietSpellReleasesOnceAfterABurst(t *testing.T) {
	t.Parallel()
	const quietSamples = int(quietFor / idleCheck)
	total := uint64(1 << 30)
	q := newQuietSpell(total)
	step := func(allocated uint64) bool {
		total += allocated
		return q.observe(total)
	}

	// Start-up: adapters connecting and catching up allocate; the first quiet sample after
	// that gives back what starting left, once.
	for i := range 3 {
		if step(5 << 20) {
			t.Fatalf("released at sample %d while start-up was still allocating", i)
		}
	}
	if !step(0) {
		t.Fatal("no release at the first quiet sample after start-up")
	}
	q.released(total)

	// An idle mom with keep-alives: quiet, but nothing worth giving back.
	for i := range 3 * quietSamples {
		if step(100 << 10) {
			t.Fatalf("released at sample %d of an idle mom that allocated nothing to speak of", i)
		}
	}
	// A burst of runs: never while it lasts.
	for i := range 10 {
		if step(50 << 20) {
			t.Fatalf("released at sample %d while runs were allocating", i)
		}
	}
	// Then quiet: the release comes at the quietFor-th quiet sample, not before.
	for i := 1; i < quietSamples; i++ {
		if step(0) {
			t.Fatalf("released after %d quiet samples; want %d", i, quietSamples)
		}
	}
	if !step(0) {
		t.Fatalf("no release after %d quiet samples following a 500 MB burst", quietSamples)
	}
	q.released(total + 4096)
	total += 4096
	for i := range 3 * quietSamples {
		if step(0) {
			t.Fatalf("released again at quiet sample %d with nothing allocated since", i)
		}
	}
	// A burst smaller than releaseAfter is not worth a full collection.
	step(releaseAfter / 2)
	for i := range 3 * quietSamples {
		if step(0) {
			t.Fatalf("released at sample %d after only %d bytes of work", i, releaseAfter/2)
		}
	}
	// More work crosses the threshold: one more release after the next quiet spell.
	step(releaseAfter)
	released := false
	for range quietSamples {
		released = step(0) || released
	}
	if !released {
		t.Error("no release after a second burst that took the total past releaseAfter")
	}
}

// TestShedThreadsEndsIdleThreads: threads a burst left idle are ended down to the number
// kept, and the process goes on working.
func TestShedThreadsEndsIdleThreads(t *testing.T) {
	if threads() == 0 {
		t.Skip("no /proc/self/status to count threads in")
	}
	// Forty goroutines, each holding a thread of its own at once, leave forty threads idle
	// once they let go: what a burst of blocking file writes leaves behind.
	const burst = 40
	var started, done sync.WaitGroup
	release := make(chan struct{})
	for range burst {
		started.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			runtime.LockOSThread()
			started.Done()
			<-release
			runtime.UnlockOSThread()
		}()
	}
	started.Wait()
	peak := threads()
	close(release)
	done.Wait()
	if peak < burst {
		t.Fatalf("only %d threads with %d goroutines locked to theirs", peak, burst)
	}
	const keep = 12
	if n := shedThreads(keep); n <= 0 {
		t.Fatalf("shedThreads ended %d threads of %d", n, peak)
	}
	// The runtime ends a thread just after its goroutine exits, so the count may lag a moment.
	deadline := time.Now().Add(10 * time.Second)
	for threads() > keep+8 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := threads(); n > keep+8 {
		t.Errorf("%d threads left after shedding from %d; want about %d", n, peak, keep)
	}
	var wg sync.WaitGroup // and work goes on
	for range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); time.Sleep(time.Millisecond) }()
	}
	wg.Wait()
}
