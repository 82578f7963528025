package slack

import "sync"

// dedup remembers which messages were handled, so that Slack's redeliveries (of envelopes not
// acknowledged in time, or again after a reconnect) and the two events Slack sends for one
// mention (message and app_mention) never log or run a message twice. It forgets the oldest
// handled messages beyond its size.
type dedup struct {
	mu      sync.Mutex
	max     int
	entries map[string]*dedupEntry
	order   []string // keys, oldest first
}

type dedupEntry struct {
	done    bool
	waiting []func() // acknowledgements of redeliveries that arrived while the first was handled
}

type claimResult int

const (
	claimNew  claimResult = iota // handle it
	claimBusy                    // the first delivery is being handled; ack runs when it is done
	claimDone                    // already handled: acknowledge and drop
)

func newDedup(max int) *dedup {
	return &dedup{max: max, entries: make(map[string]*dedupEntry)}
}

// claim says what to do with a delivery of key. For claimBusy, ack is kept and called once the
// first delivery is handled.
func (d *dedup) claim(key string, ack func()) claimResult {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[key]; ok {
		if e.done {
			return claimDone
		}
		e.waiting = append(e.waiting, ack)
		return claimBusy
	}
	d.entries[key] = &dedupEntry{}
	d.order = append(d.order, key)
	d.trim()
	return claimNew
}

// done marks key handled and acknowledges the redeliveries that waited for it.
func (d *dedup) done(key string) {
	d.mu.Lock()
	e := d.entries[key]
	var acks []func()
	if e != nil {
		e.done = true
		acks, e.waiting = e.waiting, nil
	}
	d.mu.Unlock()
	for _, ack := range acks {
		ack()
	}
}

// release forgets key after its handling failed, so the next delivery is handled afresh.
// Redeliveries that waited are not acknowledged: Slack sends them again.
func (d *dedup) release(key string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.entries, key)
}

// trim drops the oldest handled keys beyond max. d.mu is held.
func (d *dedup) trim() {
	for len(d.order) > d.max {
		key := d.order[0]
		if e, ok := d.entries[key]; ok && !e.done {
			return // still being handled; try again on the next claim
		}
		delete(d.entries, key)
		d.order = d.order[1:]
	}
}
