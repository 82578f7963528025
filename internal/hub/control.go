package hub

import (
	"context"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// isStop reports whether a trigger's text asks mom to stop: "stop" alone, in any case, with
// trailing punctuation or as a /stop command. Adapters have already removed the bot's mention.
func isStop(text string) bool {
	t := strings.ToLower(strings.TrimSpace(text))
	t = strings.TrimRight(t, ".! ")
	return t == "stop" || t == "/stop"
}

// stop aborts the channel's run, or cancels it while it waits for a free slot, and drops the
// triggers waiting behind it (people's stay in the log and reach the context with the next
// run; events count as handled).
func (h *Hub) stop(mem *member, ch *store.Channel, m chat.Message) {
	key := ch.Key()
	var dropped []job
	inLine := false
	h.mu.Lock()
	if q := h.queues[key]; q != nil {
		if len(q.jobs) > 1 {
			dropped = append(dropped, q.jobs[1:]...)
			q.jobs = q.jobs[:1]
		}
		// A run still waiting for a slot is dropped by its worker, which calls its done.
		inLine = q.slot != nil && h.slots.cancel(q.slot)
	}
	h.mu.Unlock()
	for _, j := range dropped {
		if j.done != nil {
			j.done() // a dropped event counts as handled, so its file is not left behind
		}
	}
	switch {
	case inLine:
		h.notice(mem, m, "_Stopped before it started._")
	case h.agent.Abort(key):
		h.notice(mem, m, "_Stopping…_")
	default:
		h.notice(mem, m, "_Nothing running._")
	}
}

// refuse tells someone once that mom does not take DMs from them. Later DMs are logged
// silently, so a stranger cannot make mom talk by writing repeatedly.
func (h *Hub) refuse(mem *member, m chat.Message) {
	key := mem.Name() + "/" + m.Sender.ID
	h.mu.Lock()
	told := h.refused[key]
	h.refused[key] = true
	h.mu.Unlock()
	h.log.Info("refused a direct message", "adapter", mem.Name(), "user", m.Sender.ID, "username", m.Sender.Username)
	if told {
		return
	}
	h.notice(mem, m, "Sorry, I only take direct messages from people I have been set up to work with. "+
		"An admin can allow you by adding your id `"+m.Sender.ID+"` to \"dm\" for "+mem.Name()+" in mom's config.json.")
}

// notice posts a short message in answer to m without waiting for the platform.
func (h *Hub) notice(mem *member, m chat.Message, text string) {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	h.wg.Add(1)
	h.mu.Unlock()
	go func() {
		defer h.wg.Done()
		ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), 30*time.Second)
		defer cancel()
		if _, err := mem.Post(ctx, m.ChannelID, chat.Outgoing{Text: text, ThreadOf: m.ReplyTo}); err != nil {
			h.log.Warn("could not post a notice", "adapter", mem.Name(), "channel", m.ChannelID, "err", err)
		}
	}()
}

// stopHint is what to type to stop a run: `stop` in a DM, a mention plus stop in a channel.
func stopHint(mem *member, m chat.Message) string {
	if m.IsDM {
		return "stop"
	}
	name := "mom"
	if b, ok := mem.Adapter.(BotUser); ok && b.Bot().Username != "" {
		name = b.Bot().Username
	}
	return "@" + name + " stop"
}
