package main

import (
	"context"
	"log/slog"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"
)

// How releaseWhenIdle decides that mom is quiet and that memory is worth giving back.
const (
	// idleCheck is how often allocation is sampled.
	idleCheck = 5 * time.Second
	// quietFor is how long allocation must stay under quietRate before memory is given back:
	// longer than the 30 s after which idle connections to models and platforms are closed
	// (internal/httpclient), so that what they held is given back too, and short enough that
	// a mom is back to its idle size within a minute of its last run.
	quietFor = 40 * time.Second
	// quietRate is the allocation per idleCheck below which mom counts as quiet: adapters
	// that keep a connection alive allocate a little; a run allocates megabytes.
	quietRate = 1 << 20
	// releaseAfter is how much must have been allocated since the last release for another
	// one to be worth a full collection.
	releaseAfter = 16 << 20
)

// releaseWhenIdle gives memory back to the system once mom has settled after starting, and
// again each time it has been quiet for quietFor after work that allocated at least
// releaseAfter: a burst of runs leaves the heap at its peak, and the garbage collector neither
// collects without new allocation nor hurries to return what it frees, so without this a mom
// that answered a thousand channels would stay at that size for minutes. First rest closes
// the contexts of channels idle for the quiet spell (so what they held is freed too; it
// returns how many), then one debug.FreeOSMemory (a full collection that returns every free
// page) costs a few milliseconds, and the binary's pages that starting or the work mapped are
// unmapped (releaseBinaryPages). It returns when ctx ends.
func releaseWhenIdle(ctx context.Context, log *slog.Logger, rest func(idle time.Duration) int) {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	allocated := func() uint64 {
		metrics.Read(sample)
		if sample[0].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return sample[0].Value.Uint64()
	}
	t := time.NewTicker(idleCheck)
	defer t.Stop()
	r := newQuietSpell(allocated())
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		if !r.observe(allocated()) {
			continue
		}
		start := time.Now()
		closed := rest(quietFor)
		shed := shedThreads(keepThreads)
		debug.FreeOSMemory()
		unmapped, err := releaseBinaryPages()
		if err != nil {
			log.Debug("could not unmap the binary's pages; they stay mapped", "err", err)
		}
		r.released(allocated())
		log.Debug("gave memory back to the system after a quiet spell", "contextsClosed", closed, "threadsEnded", shed,
			"binaryUnmappedBytes", unmapped, "took", time.Since(start).Round(time.Microsecond))
	}
}

// quietSpell follows the total of bytes allocated, sampled every idleCheck, and says when
// memory should be given back: at the first quiet sample after start (once the adapters have
// connected and caught up, what starting allocated and mapped is garbage), then after
// quietFor of samples under quietRate each, if at least releaseAfter was allocated since the
// last time.
type quietSpell struct {
	last, lastRelease uint64
	quiet             time.Duration
	settled           bool // the release after start-up is done
}

func newQuietSpell(allocated uint64) *quietSpell {
	return &quietSpell{last: allocated, lastRelease: allocated}
}

// observe takes the next sample and reports whether to give memory back now.
func (q *quietSpell) observe(allocated uint64) bool {
	if allocated-q.last < quietRate {
		q.quiet += idleCheck
	} else {
		q.quiet = 0
	}
	q.last = allocated
	if !q.settled {
		return q.quiet > 0
	}
	return q.quiet >= quietFor && allocated-q.lastRelease >= releaseAfter
}

// released records that memory was given back when the total was allocated (the collection
// itself allocates a little).
func (q *quietSpell) released(allocated uint64) {
	q.last, q.lastRelease, q.settled = allocated, allocated, true
}

// keepThreads is how many OS threads shedThreads leaves: the processors' and a few for the
// runtime and for file operations in progress.
const keepThreads = 12

// shedThreads ends the OS threads a burst of work left idle beyond keep, and returns how many
// it ended. The Go runtime starts a thread whenever a goroutine blocks in a system call (a
// file write, an fsync) while others wait to run, and never ends one: after a thousand
// channels answered at once, a hundred idle threads each keep their stacks (about 48 KB of
// heap) for as long as mom runs. A goroutine that exits while locked to its thread ends that
// thread (runtime.LockOSThread), and a new goroutine runs on an idle thread before a new one
// is started, so each such goroutine ends one idle thread.
func shedThreads(keep int) int {
	n := threads() - keep
	if n <= 0 {
		return 0
	}
	var wg sync.WaitGroup
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runtime.LockOSThread() // never unlocked: the thread ends with the goroutine
		}()
	}
	wg.Wait()
	return n
}

// threads returns how many OS threads the process has, from /proc; 0 where it cannot tell.
func threads() int {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(line, "Threads:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(rest))
			return n
		}
	}
	return 0
}
