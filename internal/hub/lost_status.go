package hub

import (
	"context"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/store"
)

// PostFinder is the optional ability of an adapter whose platform lets the bot read back what
// it posted (Slack's conversations.history and .replies, Discord's channel messages; not
// Telegram's Bot API, nor WhatsApp). Resume uses it to find the status message of a run that
// mom was killed in after the platform took the message and before the run journal noted its
// id: without it, that message would say "Thinking…" for ever.
type PostFinder interface {
	// FindPost returns the id of the oldest message the bot posted at at (a channel, or the
	// thread of at.ThreadOf) from since until before until, whose text is exactly text, as
	// the bot sent it; "" when there is none.
	FindPost(ctx context.Context, at chat.Place, since, until time.Time, text string) (string, error)
}

// findTimeout bounds the search for one lost status message: Resume runs while mom starts.
const findTimeout = 15 * time.Second

// findStatus looks for the status message of an interrupted run whose journal has a start
// line and no status line. The run journal notes a status message only once the platform has
// answered with its id; a kill in between leaves a message that no journal names. It is the
// bot's own message, posted after the trigger where the run posts its status, and still says
// exactly what a status message says first (its id is noted before the first edit): the
// usual "Thinking…", a wake-up's "Starting event", or "Restarted" for a run started again.
// And it was posted before this mom started: a newer run of the channel, started by this
// mom before Resume got here (a mention its catch-up read), may have a status message that
// still says the same.
// Once found, it is noted in the journal, so a mom killed again does not have to look again,
// and u says where it is.
func (h *Hub) findStatus(ctx context.Context, mem *member, ch *store.ChannelDir, trigger chat.Message, u *store.UnfinishedRun) {
	f, ok := mem.Adapter.(PostFinder)
	if _, own := mem.Adapter.(Replier); !ok || own || !mem.Dialect().Edit {
		return
	}
	var st render.StatusOptions
	if u.Start.Attempt > 1 {
		st.Text = restartedStatus
	}
	at, text := render.FirstStatus(mem.Dialect(), trigger, st)
	ctx, cancel := context.WithTimeout(ctx, findTimeout)
	defer cancel()
	id, err := f.FindPost(ctx, at, trigger.TS, h.started, text)
	switch {
	case err != nil:
		h.log.Warn("could not look for the status message of an interrupted run", "channel", ch.Key(), "id", trigger.ID, "err", err)
		return
	case id == "":
		return // mom was killed before the platform took it, or it was deleted
	}
	h.log.Info("found the status message of an interrupted run that its journal did not name", "channel", ch.Key(), "id", trigger.ID)
	u.Status, u.StatusAt = id, at
	h.journal(ch, store.RunEntry{Type: store.RunStatus, Run: trigger.ID, Status: id, StatusAt: &at})
}
