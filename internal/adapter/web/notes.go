package web

import "sync"

// notes keeps mom's short notes (busy, stopping, …) behind the message they answer. The hub
// logs a person's message and, before Receive returns, may already post its answer from
// another goroutine ("Stopping…" for a stop); the page must still see the person's words
// first. So while a message is on its way to the hub, notes for its channel wait, and go out
// right after the message is shown (or, when the hub refused it, right away).
type notes struct {
	emit func(frame) // records and broadcasts a frame (Adapter.emit)

	mu      sync.Mutex
	waiting map[string]int     // channel → people's messages handed to the hub, not yet shown
	held    map[string][]frame // channel → notes waiting for them, in order
}

func newNotes(emit func(frame)) *notes {
	return &notes{emit: emit, waiting: make(map[string]int), held: make(map[string][]frame)}
}

// hold makes the channel's notes wait until release: call it before handing a person's
// message to the hub.
func (n *notes) hold(channel string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.waiting[channel]++
}

// release runs show (the message's frame; nil when the hub did not take it) and then sends
// the notes that waited for it, unless another message of the channel is still on its way.
func (n *notes) release(channel string, show func()) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if show != nil {
		show()
	}
	if n.waiting[channel]--; n.waiting[channel] > 0 {
		return
	}
	delete(n.waiting, channel)
	for _, f := range n.held[channel] {
		n.emit(f)
	}
	delete(n.held, channel)
}

// send sends a note (or its edit or withdrawal) now, or after the messages it may answer.
func (n *notes) send(f frame) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.waiting[f.Channel] > 0 {
		n.held[f.Channel] = append(n.held[f.Channel], f)
		return
	}
	n.emit(f)
}
