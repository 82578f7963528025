package jsonl

import (
	"sync"
	"time"
)

// DefaultFlushInterval is how long a line may wait in the page cache before a Flusher writes it
// to disk: the most a power failure can lose.
const DefaultFlushInterval = time.Second

// Flusher fsyncs the files given to it that changed, every interval, in the background. It
// bounds what a power failure can lose without paying an fsync per line. A failed fsync leaves
// the file dirty, so the next round, or the owner's explicit Sync, retries it and reports the
// error; the flusher itself reports nothing.
type Flusher struct {
	interval time.Duration

	mu    sync.Mutex
	files map[*File]struct{}

	stop chan struct{}
	done chan struct{}
	once sync.Once
}

// NewFlusher starts a flusher that syncs its files every interval (DefaultFlushInterval if
// interval is not positive). Close stops it.
func NewFlusher(interval time.Duration) *Flusher {
	if interval <= 0 {
		interval = DefaultFlushInterval
	}
	fl := &Flusher{
		interval: interval,
		files:    make(map[*File]struct{}),
		stop:     make(chan struct{}),
		done:     make(chan struct{}),
	}
	go fl.run()
	return fl
}

// Add puts f under the flusher's care until Remove or Close.
func (fl *Flusher) Add(f *File) {
	fl.mu.Lock()
	fl.files[f] = struct{}{}
	fl.mu.Unlock()
}

// Remove takes f out of the flusher's care; it does not sync or close f.
func (fl *Flusher) Remove(f *File) {
	fl.mu.Lock()
	delete(fl.files, f)
	fl.mu.Unlock()
}

// Close stops the background loop after one last round, and waits for it. Files are left open.
func (fl *Flusher) Close() {
	fl.once.Do(func() { close(fl.stop) })
	<-fl.done
}

func (fl *Flusher) run() {
	defer close(fl.done)
	t := time.NewTicker(fl.interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			fl.flush()
		case <-fl.stop:
			fl.flush()
			return
		}
	}
}

// flush syncs every dirty file. The set is copied first so that Add and Remove never wait for
// a disk.
func (fl *Flusher) flush() {
	fl.mu.Lock()
	files := make([]*File, 0, len(fl.files))
	for f := range fl.files {
		files = append(files, f)
	}
	fl.mu.Unlock()
	for _, f := range files {
		_ = f.Sync() // a failure leaves f dirty; the next round or the owner's Sync reports it
	}
}
