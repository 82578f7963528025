package chat

import "sync"

// Lanes runs work for each channel in order, one item at a time, and channels in parallel:
// a slow attachment download in one channel holds up neither other channels nor the
// platform connection. Adapters use it so that messages of one channel reach the hub in the order
// the platform sent them.
type Lanes struct {
	mu   sync.Mutex
	jobs map[string][]func()
	wg   sync.WaitGroup
}

// NewLanes returns an empty set of lanes.
func NewLanes() *Lanes { return &Lanes{jobs: make(map[string][]func())} }

// Run queues fn behind the channel's earlier work.
func (l *Lanes) Run(channel string, fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	q, busy := l.jobs[channel]
	l.jobs[channel] = append(q, fn)
	if busy {
		return
	}
	l.wg.Add(1)
	go l.drain(channel)
}

func (l *Lanes) drain(channel string) {
	defer l.wg.Done()
	for {
		l.mu.Lock()
		q := l.jobs[channel]
		if len(q) == 0 {
			delete(l.jobs, channel)
			l.mu.Unlock()
			return
		}
		fn := q[0]
		l.jobs[channel] = q[1:]
		l.mu.Unlock()
		fn()
	}
}

// Wait returns when every queued item has run.
func (l *Lanes) Wait() { l.wg.Wait() }
