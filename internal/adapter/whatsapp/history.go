//go:build !nowhatsapp

package whatsapp

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"go.mau.fi/whatsmeow/proto/waHistorySync"
	"go.mau.fi/whatsmeow/proto/waWeb"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// History import ("historyDays"). After a phone links a new device, it sends the device its
// recent chats in a few history sync notifications (an initial bootstrap, then recent and
// sometimes full chunks), which whatsmeow downloads and hands over as events.HistorySync.
// WhatsApp sends these once per linked device, not on every connection, so importing them is
// what "on first link" means; should a chunk come twice (a restart in the middle of the
// transfer), the message ids dedup it: the gate within a run, the hub against the log.
//
// The messages are logged as context, never run: each chat's messages in the order they
// were sent, on the chat's lane of the gate, so a live message of the chat waits for them.
// Their files are noted in the log but not downloaded (days of pictures and videos are more
// than context is worth, and their links expire): the attachment says so, for the model.

// historySyncs are the kinds of history sync that carry a newly linked device's chats.
var historySyncs = []waHistorySync.HistorySync_HistorySyncType{
	waHistorySync.HistorySync_INITIAL_BOOTSTRAP, waHistorySync.HistorySync_RECENT, waHistorySync.HistorySync_FULL,
}

// notDownloaded is what a file of an imported message says instead of where it is.
const notDownloaded = "not downloaded: this message was imported from the phone's history, and mom fetches only the files of messages it receives"

// onHistory takes a history sync: the push names it carries always, and with historyDays set,
// the chats' messages of the last historyDays days, into the logs as context.
func (a *Adapter) onHistory(e *events.HistorySync) {
	for _, p := range e.Data.GetPushnames() {
		if jid, err := types.ParseJID(p.GetID()); err == nil {
			a.dir.learnName(jid, p.GetPushname())
		}
	}
	days := a.opts.Config.HistoryDays
	if days <= 0 || !slices.Contains(historySyncs, e.Data.GetSyncType()) {
		return
	}
	ctx, in, ok := a.enter()
	if !ok {
		return // not acknowledged to anyone: the phone's history is context, lost with no harm
	}
	defer a.handling.Done()
	since := a.now().Add(-time.Duration(days) * 24 * time.Hour)
	chats, total := 0, 0
	for _, conv := range e.Data.GetConversations() {
		msgs := a.pastMessages(conv, since)
		if len(msgs) == 0 {
			continue
		}
		chats, total = chats+1, total+len(msgs)
		for _, m := range msgs {
			channel := a.channelOf(m.Info)
			a.gate.Take(ctx, in, intake.Delivery{
				Key: channel + "/" + m.Info.ID, Lane: channel,
				Convert: func(ctx context.Context) (chat.Message, bool, error) { return a.convertPast(ctx, channel, m) },
			})
		}
	}
	if total > 0 {
		a.log.Info("importing the phone's history into the logs, as context",
			"kind", strings.ToLower(e.Data.GetSyncType().String()), "chats", chats, "messages", total, "days", days)
	}
}

// pastMessages are a history chat's messages sent since `since`, oldest first, leaving out
// what a live message would leave out too (statuses, channel posts, edits, reactions) and what
// cannot be read.
func (a *Adapter) pastMessages(conv *waHistorySync.Conversation, since time.Time) []*events.Message {
	jid, err := types.ParseJID(conv.GetID())
	if err != nil {
		a.log.Debug("a chat of the phone's history has an id mom cannot read", "id", conv.GetID(), "err", err)
		return nil
	}
	type past struct {
		evt   *events.Message
		order uint64
	}
	var out []past
	for _, hm := range conv.GetMessages() {
		m, ok := a.pastMessage(jid, hm.GetMessage())
		if ok && !m.Info.Timestamp.Before(since) && !ignored(m) {
			out = append(out, past{m, hm.GetMsgOrderID()})
		}
	}
	// The phone lists a chat newest first; messages of one second keep the phone's order.
	slices.SortStableFunc(out, func(x, y past) int {
		return cmp.Or(x.evt.Info.Timestamp.Compare(y.evt.Info.Timestamp), cmp.Compare(x.order, y.order))
	})
	evts := make([]*events.Message, len(out))
	for i, p := range out {
		evts[i] = p.evt
	}
	return evts
}

// pastMessage reads a message of the phone's history as the live message it once was, the
// way whatsmeow's Client.ParseWebMessage does; ok is false when it names no sender.
func (a *Adapter) pastMessage(chatJID types.JID, w *waWeb.WebMessageInfo) (*events.Message, bool) {
	key := w.GetKey()
	info := types.MessageInfo{
		MessageSource: types.MessageSource{Chat: chatJID, IsFromMe: key.GetFromMe(), IsGroup: chatJID.Server == types.GroupServer},
		ID:            key.GetID(), PushName: w.GetPushName(), Timestamp: time.Unix(int64(w.GetMessageTimestamp()), 0),
	}
	var err error
	switch {
	case info.ID == "":
		return nil, false
	case info.IsFromMe:
		a.mu.Lock()
		info.Sender = a.self
		a.mu.Unlock()
	case !info.IsGroup:
		info.Sender = chatJID
	case w.GetParticipant() != "":
		info.Sender, err = types.ParseJID(w.GetParticipant())
	default:
		info.Sender, err = types.ParseJID(key.GetParticipant())
	}
	if err != nil || info.Sender.IsEmpty() {
		return nil, false
	}
	evt := &events.Message{Info: info, RawMessage: w.GetMessage(), SourceWebMsg: w}
	evt.UnwrapRaw()
	return evt, true
}

// convertPast turns a message of the phone's history into a line of the log: as a live one
// is (convert), but neither a mention nor a DM to mom, so that the hub logs it and never runs
// it however recent it is, and with its files noted, not fetched.
func (a *Adapter) convertPast(ctx context.Context, channel string, e *events.Message) (chat.Message, bool, error) {
	m, ok, err := a.readMessage(ctx, channel, e, false)
	m.IsMention, m.IsDM = false, false
	return m, ok, err
}
