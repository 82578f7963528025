package metrics

import (
	"errors"

	"github.com/mom-agent/mom/internal/chat"
)

// Waker is what the events watcher wakes mom with (*hub.Hub; events.Hub).
type Waker interface {
	Wake(adapter, channelID string, trigger chat.Message, done func()) error
}

// WakeUps wraps w so that every event fired is counted by adapter and result: "queued" (it
// will run), "dropped" (its channel had too many waiting) or "failed".
func (m *Metrics) WakeUps(w Waker) Waker { return countedWaker{next: w, m: m} }

// countedWaker is a Waker that counts the wake-ups it passes on.
type countedWaker struct {
	next Waker
	m    *Metrics
}

func (c countedWaker) Wake(adapter, channelID string, trigger chat.Message, done func()) error {
	err := c.next.Wake(adapter, channelID, trigger, done)
	result := "queued"
	var full interface{ QueueFull() bool }
	switch {
	case err == nil:
	case errors.As(err, &full) && full.QueueFull():
		result = "dropped"
	default:
		result = "failed"
	}
	c.m.counter("mom_events_fired_total", with(c.m.where(adapter, channelID), "result", result)...).Inc()
	return err
}
