package hub

import (
	"time"

	"github.com/mom-agent/mom/internal/store"
)

// usedChannel is a channel whose context a job may have opened (and so holds in memory), and
// when its last job ended.
type usedChannel struct {
	ch *store.ChannelDir
	at time.Time
}

// noteUsedLocked records, as a job of ch ends, that its context may be open. h.mu is held.
func (h *Hub) noteUsedLocked(ch *store.ChannelDir) {
	h.used[ch.Key()] = usedChannel{ch: ch, at: time.Now()}
}

// RestContexts closes the contexts of the channels that have no run going or waiting and
// whose last run ended at least idle ago, and reports how many it closed. An open context is
// the whole of the channel's context.jsonl in memory; without this a mom that has talked in
// many channels would hold every one of them for as long as it runs. The next run in the
// channel reads its context again (a few milliseconds for a thousand entries). It holds the
// hub's lock while it closes, so no run can start on a context being closed.
func (h *Hub) RestContexts(idle time.Duration) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	n := 0
	for key, u := range h.used {
		if _, busy := h.queues[key]; busy || time.Since(u.at) < idle {
			continue
		}
		if err := u.ch.CloseSession(); err != nil {
			h.log.Warn("could not close a channel's context", "channel", key, "err", err)
		}
		delete(h.used, key)
		n++
	}
	return n
}
