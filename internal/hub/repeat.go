package hub

import (
	"fmt"
	"sync"

	"github.com/mom-agent/mom/internal/store"
)

// repeatLookback is how many of a channel's last logged messages are remembered to recognize
// one sent again. A platform resends only what mom had not confirmed when it stopped: the
// events it had not acknowledged, or its last batch of updates, which holds at most 100 on
// the platforms that send batches.
const repeatLookback = 200

// repeats recognizes a message that is already in its channel's log because an earlier mom
// process logged it and then died before confirming it to the platform, which sends it again
// to the next process. Within one process the adapters' dedup sets catch repeats; across a
// restart only the log knows. Such a message is from before start-up, so only those are
// checked, against the ids at the log's end, read once per channel.
type repeats struct {
	mu  sync.Mutex
	ids map[string]map[string]bool // channel key → ids of recently logged messages
}

// seen reports whether a message with id is among ch's recently logged ones.
func (r *repeats) seen(ch *store.ChannelDir, id string) (bool, error) {
	if id == "" {
		return false, nil
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	ids, ok := r.ids[ch.Key()]
	if !ok {
		msgs, err := ch.TailMessages(repeatLookback)
		if err != nil {
			return false, fmt.Errorf("could not read the log to recognize messages sent again: %w", err)
		}
		ids = make(map[string]bool, len(msgs)+1)
		for _, m := range msgs {
			ids[m.ID] = true
		}
		if r.ids == nil {
			r.ids = map[string]map[string]bool{}
		}
		r.ids[ch.Key()] = ids
	}
	return ids[id], nil
}

// logged notes that a message with id is in ch's log now, if ch's ids are remembered.
func (r *repeats) logged(ch *store.ChannelDir, id string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if ids, ok := r.ids[ch.Key()]; ok && id != "" {
		ids[id] = true
	}
}
