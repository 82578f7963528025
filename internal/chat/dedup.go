package chat

import "sync"

// Dedup remembers which messages were handled, so that a platform's redeliveries (of events
// not acknowledged in time, or again after a reconnect; of two events for one mention; of a
// session's last events, replayed when it resumes) never log or run a message twice. It
// forgets the oldest handled messages beyond its size.
type Dedup struct {
	mu      sync.Mutex
	max     int
	entries map[string]*dedupEntry
	order   []string // keys, oldest first
}

type dedupEntry struct {
	done    bool
	lane    string   // where the first delivery waits to be handled (ClaimIn); "" if unsaid
	waiting []waiter // redeliveries that arrived while the first was handled
}

// waiter is a redelivery waiting for the first delivery's outcome: ack once it is handled,
// nack (may be nil) if its handling failed.
type waiter struct{ ack, nack func() }

// Claim says what to do with one delivery of a message.
type Claim int

const (
	// ClaimNew: the first delivery; handle it, then call Done or Release.
	ClaimNew Claim = iota
	// ClaimBusy: the first delivery is being handled; its ack runs once that is done.
	ClaimBusy
	// ClaimDone: already handled; acknowledge and drop it.
	ClaimDone
)

// NewDedup returns a Dedup that remembers about max handled messages.
func NewDedup(max int) *Dedup {
	return &Dedup{max: max, entries: make(map[string]*dedupEntry)}
}

// Claim says what to do with a delivery of key. For ClaimBusy, ack is kept and called once the
// first delivery is handled.
func (d *Dedup) Claim(key string, ack func()) Claim { return d.ClaimOr(key, ack, nil) }

// ClaimOr is Claim for a caller that must hear either way what became of a redelivery: for
// ClaimBusy it keeps ack and nack, and calls ack once the first delivery is handled (Done), or
// nack (when not nil) if its handling failed (Release). An adapter that confirms a batch of
// messages at once waits for every message in it this way.
func (d *Dedup) ClaimOr(key string, ack, nack func()) Claim { return d.ClaimIn(key, "", ack, nack) }

// ClaimIn is ClaimOr for a delivery handled in turn on a lane (Lanes): a first delivery's
// lane is remembered, so that HandleAhead on the same lane may handle it in its place.
func (d *Dedup) ClaimIn(key, lane string, ack, nack func()) Claim {
	d.mu.Lock()
	defer d.mu.Unlock()
	if e, ok := d.entries[key]; ok {
		if e.done {
			return ClaimDone
		}
		e.waiting = append(e.waiting, waiter{ack, nack})
		return ClaimBusy
	}
	d.entries[key] = &dedupEntry{lane: lane}
	d.order = append(d.order, key)
	d.trim()
	return ClaimNew
}

// Done marks key handled and acknowledges the redeliveries that waited for it.
func (d *Dedup) Done(key string) {
	d.mu.Lock()
	e := d.entries[key]
	var waiting []waiter
	if e != nil {
		e.done = true
		waiting, e.waiting = e.waiting, nil
	}
	d.mu.Unlock()
	for _, w := range waiting {
		w.ack()
	}
}

// Release forgets key after its handling failed, so the next delivery is handled afresh.
// Redeliveries that waited are not acknowledged (their nack, if any, is called): the platform
// sends them again.
func (d *Dedup) Release(key string) {
	d.mu.Lock()
	var waiting []waiter
	if e := d.entries[key]; e != nil {
		waiting = e.waiting
	}
	delete(d.entries, key)
	d.mu.Unlock()
	for _, w := range waiting {
		if w.nack != nil {
			w.nack()
		}
	}
}

// Handle runs fn for the first delivery of key: a key already handled, or being handled, is
// skipped. When fn fails the key is released, so a later delivery is handled afresh. It
// reports whether fn ran, and fn's error.
func (d *Dedup) Handle(key string, fn func() error) (ran bool, err error) {
	if d.Claim(key, func() {}) != ClaimNew {
		return false, nil
	}
	if err := fn(); err != nil {
		d.Release(key)
		return true, err
	}
	d.Done(key)
	return true, nil
}

// HandleAhead is Handle for a caller that runs on a lane ahead of the deliveries queued
// behind it there, such as a catch-up on a channel's lane, where the channel's live
// deliveries wait: a key such a delivery claimed on the same lane (ClaimIn) and has not
// handled yet is handled here, in the caller's order, and the delivery finds it done
// (Handled) when its turn comes. Skipping it instead would let what the caller handles next
// overtake it. A key handled already, or claimed on another lane (whose delivery may be
// handling it right now), is skipped. When fn fails, a key the caller claimed is released
// and one a delivery claimed is left to that delivery.
func (d *Dedup) HandleAhead(key, lane string, fn func() error) (ran bool, err error) {
	d.mu.Lock()
	e, claimed := d.entries[key]
	if claimed && (e.done || e.lane == "" || e.lane != lane) {
		d.mu.Unlock()
		return false, nil
	}
	if !claimed {
		d.entries[key] = &dedupEntry{lane: lane}
		d.order = append(d.order, key)
		d.trim()
	}
	d.mu.Unlock()
	if err := fn(); err != nil {
		if !claimed {
			d.Release(key)
		}
		return true, err
	}
	d.Done(key)
	return true, nil
}

// Handled reports whether key was handled (Done), by its first delivery or ahead of it.
func (d *Dedup) Handled(key string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	e, ok := d.entries[key]
	return ok && e.done
}

// trim drops the oldest handled keys beyond max. d.mu is held.
func (d *Dedup) trim() {
	for len(d.order) > d.max {
		key := d.order[0]
		if e, ok := d.entries[key]; ok && !e.done {
			return // still being handled; try again on the next claim
		}
		delete(d.entries, key)
		d.order = d.order[1:]
	}
}
