package hub

import (
	"context"
	"sync"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// leftRequests is what the approval journals show asked and never answered when mom
// started, by adapter: read once, at the first Resume.
type leftRequests struct {
	once      sync.Once
	byAdapter map[string][]store.PendingApproval
}

func (l *leftRequests) of(h *Hub, adapter string) []store.PendingApproval {
	l.once.Do(func() {
		all, err := h.store.PendingApprovals()
		if err != nil {
			h.log.Warn("could not read every approval journal; some requests a restart interrupted stay open on the platform", "err", err)
		}
		l.byAdapter = make(map[string][]store.PendingApproval)
		for _, p := range all {
			l.byAdapter[p.Adapter] = append(l.byAdapter[p.Adapter], p)
		}
	})
	return l.byAdapter[adapter]
}

// closeRequests denies the requests of adapter that a restart left waiting: the call never
// runs, its question says so where the platform can edit it, and the journal and the log note
// it. A run started again after the restart asks again.
func (h *Hub) closeRequests(ctx context.Context, adapter string) {
	pending := h.leftRequests.of(h, adapter)
	if len(pending) == 0 {
		return
	}
	mem, err := h.member(adapter, "approval")
	if err != nil {
		return
	}
	for _, p := range pending {
		ch, err := h.store.ChannelDir(p.Adapter, p.ChannelID)
		if err != nil {
			continue
		}
		text := approval.Outcome(approval.Restart, nil, 0)
		h.noteApproval(mem, ch, store.ApprovalEntry{Type: store.ApprovalDecided, ID: p.Asked.ID, Decision: approval.Restart}, text)
		h.log.Info("denied a request for approval that a restart interrupted", "channel", ch.Key(), "request", p.Asked.ID)
		settled := p.Asked.Subject + "\n**" + text + "**"
		if p.Message == "" || !h.settleQuestion(ctx, mem, p.MessageAt, p.Message, settled) {
			// mom died before it noted where the request is, or it cannot be changed: say so
			// below it, so nobody answers a request that is over.
			h.post(ctx, mem, chat.Message{ChannelID: p.ChannelID}, "_A request for approval was waiting when mom restarted; it was not run:_\n"+settled)
		}
	}
}

// settleQuestion writes md in place of a question's message, taking its buttons away, and
// reports whether it could.
func (h *Hub) settleQuestion(ctx context.Context, mem *member, at chat.Place, id, md string) bool {
	d := mem.Dialect()
	text := md
	if d.Format != nil {
		text = d.Format(md)
	}
	var err error
	switch a, ok := mem.Surface().(chat.Asker); {
	case ok:
		err = a.Settle(ctx, at, id, text)
	case d.Edit:
		err = mem.Surface().Edit(ctx, at, id, text)
	default:
		return false
	}
	if err != nil {
		h.log.Warn("could not update a request for approval", "channel", at.ChannelID, "err", err)
		return false
	}
	return true
}

// noteQuestion notes where a request's question is on the platform, so that a restart
// before it is answered can settle it.
func (h *Hub) noteQuestion(ch *store.ChannelDir, request string, at chat.Place, id string) {
	e := store.ApprovalEntry{Type: store.ApprovalPosted, ID: request, Message: id, MessageAt: &at}
	if err := ch.JournalApproval(e); err != nil {
		h.log.Warn("could not note where a request for approval is", "channel", ch.Key(), "err", err)
	}
}
