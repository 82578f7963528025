package slack

import "sync"

// lanes runs work for each channel in order, one item at a time, and channels in parallel:
// a slow attachment download in one channel holds up neither other channels nor the socket.
type lanes struct {
	mu   sync.Mutex
	jobs map[string][]func()
	wg   sync.WaitGroup
}

func newLanes() *lanes { return &lanes{jobs: make(map[string][]func())} }

// run queues fn behind the channel's earlier work.
func (l *lanes) run(channel string, fn func()) {
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

func (l *lanes) drain(channel string) {
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

// wait returns when every queued item has run.
func (l *lanes) wait() { l.wg.Wait() }
