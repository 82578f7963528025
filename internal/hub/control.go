package hub

import (
	"context"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
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
// run; wake-ups count as handled). Only the person whose message started the run, or an
// admin, may stop it; a wake-up's run has no such person, and anyone who may start runs in
// the channel may stop it.
func (h *Hub) stop(mem *member, ch *store.ChannelDir, m chat.Message) {
	key := ch.Key()
	var dropped []job
	inLine := false
	h.mu.Lock()
	q := h.queues[key]
	if q != nil && len(q.jobs) > 0 && !mayStop(mem, q.jobs[0], m.Sender) {
		owner := q.jobs[0].msg.Sender
		h.mu.Unlock()
		h.log.Info("refused a stop from someone else", "channel", key, "user", m.Sender.ID, "requester", owner.ID)
		h.notice(mem, m, "_Only "+senderName(owner)+", who asked for this run, or an admin can stop it._")
		return
	}
	if q != nil {
		if len(q.jobs) > 1 {
			dropped = append(dropped, q.jobs[1:]...)
			q.jobs = q.jobs[:1]
		}
		// A run still waiting for a slot is dropped by its worker, which calls its done.
		inLine = q.slot != nil && h.slots.cancel(q.slot)
	}
	h.mu.Unlock()
	for _, j := range dropped {
		h.journalDropped(j)
		if j.done != nil {
			j.done() // a dropped wake-up counts as handled, so its file is not left behind
		}
	}
	switch {
	case inLine:
		h.notice(mem, m, "_Stopped before it started._")
	case h.runner.Abort(key):
		h.notice(mem, m, "_Stopping…_")
	default:
		h.notice(mem, m, "_Nothing running._")
	}
}

// mayStop reports whether who may stop the run of j: its requester, an admin, or, for a
// wake-up's run, anyone.
func mayStop(mem *member, j job, who chat.User) bool {
	return j.wakeUp || j.msg.Sender.ID == who.ID || slices.Contains(mem.cfg.Admins, who.ID)
}

// senderName is how a person is named in a notice: their handle, else their id. It is written
// without "@", so the notice does not ping them.
func senderName(u chat.User) string {
	if u.Username != "" {
		return u.Username
	}
	return u.ID
}

// notice posts a short message in answer to m without waiting for the platform.
func (h *Hub) notice(mem *member, m chat.Message, md string) {
	h.background(func(ctx context.Context) { h.post(ctx, mem, m, md) })
}

// post writes a notice, markdown, where m was written (in its thread, if any), in the
// adapter's dialect.
func (h *Hub) post(ctx context.Context, mem *member, m chat.Message, md string) {
	at := chat.Place{ChannelID: m.ChannelID, ThreadOf: m.ReplyTo}
	if _, err := render.Post(ctx, mem.Surface(), mem.Dialect(), at, md); err != nil {
		h.log.Warn("could not post a notice", "adapter", mem.Name(), "channel", m.ChannelID, "err", err)
	}
}

// background runs a short piece of platform work (a notice, leaving a group) without holding
// up the message that caused it. Shutdown waits for it; it gets 30 seconds of its own.
func (h *Hub) background(work func(ctx context.Context)) {
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
		work(ctx)
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
