package hub

import "github.com/mom-agent/mom/internal/chat"

// maxQueuedWakeUps is how many wake-up runs (package events) may wait behind a channel's
// run; more are dropped.
const maxQueuedWakeUps = 5

// ErrQueueFull is returned by Wake when a channel already has maxQueuedWakeUps wake-ups
// waiting.
// The events watcher recognizes it by its QueueFull method, without importing the hub.
var ErrQueueFull error = queueFullError{}

// queueFullError is ErrQueueFull.
type queueFullError struct{}

func (queueFullError) Error() string { return "too many events are waiting in this channel" }

// QueueFull reports that the wake-up was refused because its channel's queue is full.
func (queueFullError) QueueFull() bool { return true }

// Wake runs a wake-up, a scheduled or external event file of package events, in a channel
// (the spec's enqueueEvent). Unlike a person's message it always queues behind the channel's
// current run, never "already working", up to maxQueuedWakeUps waiting wake-ups; past that
// it returns ErrQueueFull. Across channels, wake-ups hold at most their share of the run
// slots (slots.go). The trigger is not logged: it is mom's own wake-up, not something people
// said; the run sees the log as it is now. done, if not nil, is called after the run, or
// when `stop` drops the waiting wake-up; a wake-up still waiting when mom shuts down is not
// run and done is not called.
func (h *Hub) Wake(adapter, channelID string, trigger chat.Message, done func()) error {
	mem, err := h.member(adapter, "event")
	if err != nil {
		return err
	}
	ch, err := h.store.ChannelDir(adapter, channelID)
	if err != nil {
		return err
	}
	end, err := ch.LogSize()
	if err != nil {
		return err
	}
	trigger.ChannelID = channelID
	j := job{mem: mem, ch: ch, msg: trigger, logEnd: end, wakeUp: true, done: done, attempt: 1}
	key := ch.Key()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return ErrClosed
	}
	if q, ok := h.queues[key]; ok {
		waiting := 0
		for _, w := range q.jobs[1:] {
			if w.wakeUp {
				waiting++
			}
		}
		if waiting >= maxQueuedWakeUps {
			return ErrQueueFull
		}
	}
	h.enqueueLocked(key, j)
	return nil
}
