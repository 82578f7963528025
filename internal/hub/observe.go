package hub

import (
	"context"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/store"
)

// Transcriber gives the audio attachments of a message their transcripts (or a note of why
// not) before the message is logged, so that log.jsonl keeps them (package transcribe);
// Options.Transcriber, nil to leave audio as files. It returns when each has been tried.
type Transcriber interface {
	Transcribe(ctx context.Context, ch *store.ChannelDir, m *chat.Message)
}

// Observer hears what the hub does, for mom's metrics (package metrics); Options.Observer,
// nil for none. Calls come from the hub's goroutines and must not block.
type Observer interface {
	// RunStarted is told that a run starts in a channel of adapter (a wake-up's when wakeUp);
	// the sink it returns sees the run's events, in order, before the reply does.
	RunStarted(adapter, channelID string, wakeUp bool) run.Sink
	// Busy is told how a trigger that came while its channel was busy was answered: with the
	// adapter's busy policy ("reject", "queue", "steer"), or "full" when too many wait.
	Busy(adapter, channelID, how string)
}

// Load is how busy the hub is at one moment.
type Load struct {
	// Running is how many runs hold a slot; WaitingForSlot how many wait for one.
	Running, WaitingForSlot int
	// Queued is how many triggers wait behind their channel's run (busy policy "queue", and
	// wake-ups).
	Queued int
}

// Load says how busy the hub is now.
func (h *Hub) Load() Load {
	running, waiting := h.slots.load()
	h.mu.Lock()
	defer h.mu.Unlock()
	l := Load{Running: running, WaitingForSlot: waiting}
	for _, q := range h.queues {
		if len(q.jobs) > 1 {
			l.Queued += len(q.jobs) - 1
		}
	}
	return l
}

// observed is the sink of j's run: the observer's first, when there is one, then the reply's.
func (h *Hub) observed(j job, reply run.Sink) run.Sink {
	if h.observer == nil {
		return reply
	}
	seen := h.observer.RunStarted(j.mem.Name(), j.msg.ChannelID, j.wakeUp)
	return func(ev run.Event) {
		seen(ev)
		reply(ev)
	}
}

// busy tells the observer how a trigger for a busy channel was answered.
func (h *Hub) busy(mem *member, j job, how string) {
	if h.observer != nil {
		h.observer.Busy(mem.Name(), j.msg.ChannelID, how)
	}
}
