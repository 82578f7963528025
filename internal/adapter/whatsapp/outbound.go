//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"google.golang.org/protobuf/proto"

	"github.com/mom-agent/mom/internal/chat"
)

// editWindow is how long after sending WhatsApp lets the sender edit a message.
const editWindow = 15 * time.Minute

// editMargin keeps edits that far inside the window, so that one on its way, or a clock a
// little off WhatsApp's, still lands in it.
const editMargin = time.Minute

// Dialect is how mom writes in WhatsApp: its own markup, up to MaxText in a message, a status
// message edited into the answer (at a pace that stays clear of WhatsApp's limits on edits),
// quotes instead of threads, "typing…", and the verbosity config.json chose (quiet unless
// set).
func (a *Adapter) Dialect() chat.Dialect {
	return chat.Dialect{
		Format: a.format, MaxText: MaxText, Edit: true, Delete: true, Threads: chat.Quotes,
		// An edit is a whole message to every device of everyone in the chat; a run's status
		// changes are merged into one every few seconds.
		EditEvery: 3 * time.Second,
		// WhatsApp shows "typing…" until the next message, or for about 25 seconds.
		TypingEvery: 10 * time.Second,
		Verbosity:   string(a.opts.Config.Verbosity),
	}
}

// format converts the model's markdown to WhatsApp's markup, with @username of people mom
// has heard from turned into mentions.
func (a *Adapter) format(md string) string { return Markup(md, a.dir.mention) }

// Surface is where mom writes in WhatsApp: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Post sends one message of WhatsApp markup to a chat and returns its id. With at.ThreadOf
// set, it quotes that message.
func (a *Adapter) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	c, to, err := a.target(at.ChannelID)
	if err != nil {
		return "", err
	}
	msg := &waE2E.Message{Conversation: proto.String(text)}
	if ci := a.contextFor(at, text); ci != nil {
		msg = &waE2E.Message{ExtendedTextMessage: &waE2E.ExtendedTextMessage{Text: proto.String(text), ContextInfo: ci}}
	}
	return a.send(ctx, c, at.ChannelID, to, msg, text)
}

// send sends a message and remembers it, for edits, deletions and quotes.
func (a *Adapter) send(ctx context.Context, c Client, channel string, to types.JID, msg *waE2E.Message, text string) (string, error) {
	sentAt := a.now()
	resp, err := c.SendMessage(ctx, to, msg)
	if err != nil {
		return "", fmt.Errorf("send to WhatsApp chat %s: %w", channel, err)
	}
	a.sent.add(resp.ID, sentAt, text)
	a.mu.Lock()
	self := a.self
	a.mu.Unlock()
	a.seen.add(channel, resp.ID, to, self, quotable(text), false)
	return resp.ID, nil
}

// contextFor is the ContextInfo of a message mom sends at at: the people text mentions, and
// the message it quotes. nil when there is neither, for a plain message.
func (a *Adapter) contextFor(at chat.Place, text string) *waE2E.ContextInfo {
	ci := &waE2E.ContextInfo{MentionedJID: a.dir.mentioned(text)}
	if at.ThreadOf != "" {
		if q, ok := a.seen.get(at.ChannelID, at.ThreadOf); ok {
			ci.StanzaID, ci.Participant, ci.QuotedMessage = proto.String(q.id), proto.String(q.sender.String()), q.quote
		}
	}
	if ci.StanzaID == nil && len(ci.MentionedJID) == 0 {
		return nil
	}
	return ci
}

// Edit replaces the text of a message mom sent. WhatsApp allows that for 15 minutes after
// sending; past that the new text goes as a new message, which takes the old one's place for
// later edits and deletions, so a run that outlasts the window still ends in its answer.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, id, text string) error {
	c, to, err := a.target(at.ChannelID)
	if err != nil {
		return err
	}
	chain := a.sent.chain(id)
	last := chain[len(chain)-1]
	if !last.at.IsZero() && last.text == text {
		return nil // an edit is a message to every device in the chat: none that changes nothing
	}
	if last.at.IsZero() || a.now().Sub(last.at) >= editWindow-editMargin {
		newID, err := a.Post(ctx, at, text)
		if err != nil {
			return err
		}
		a.sent.continued(id, newID)
		a.log.Debug("WhatsApp allows edits only for 15 minutes; sent the update as a new message", "chat", at.ChannelID, "old", last.id, "new", newID)
		return nil
	}
	content := &waE2E.Message{Conversation: proto.String(text)}
	if jids := a.dir.mentioned(text); len(jids) > 0 {
		content = &waE2E.Message{ExtendedTextMessage: &waE2E.ExtendedTextMessage{Text: proto.String(text),
			ContextInfo: &waE2E.ContextInfo{MentionedJID: jids}}}
	}
	if _, err := c.SendMessage(ctx, to, c.BuildEdit(to, last.id, content)); err != nil {
		return fmt.Errorf("edit WhatsApp message %s in %s: %w", last.id, at.ChannelID, err)
	}
	a.sent.edited(last.id, text)
	return nil
}

// Delete takes back a message mom sent, for everyone ("This message was deleted"), and the
// messages that took its place.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, id string) error {
	c, to, err := a.target(at.ChannelID)
	if err != nil {
		return err
	}
	var errs []error
	for _, m := range a.sent.chain(id) {
		if _, err := c.SendMessage(ctx, to, c.BuildRevoke(to, types.EmptyJID, m.id)); err != nil {
			errs = append(errs, fmt.Errorf("delete WhatsApp message %s in %s: %w", m.id, at.ChannelID, err))
		}
	}
	return errors.Join(errs...)
}

// Typing shows "typing…" in the chat of at (render.Typist), which the hub asks for when a
// run starts and now and then while it lasts; the chat's messages that mom has not marked read
// yet get their read receipts with it, so people see mom has read them as it starts working.
func (a *Adapter) Typing(ctx context.Context, at chat.Place) error {
	c, to, err := a.target(at.ChannelID)
	if err != nil {
		return err
	}
	a.markRead(ctx, c, at.ChannelID)
	return c.SendChatPresence(ctx, to, types.ChatPresenceComposing, types.ChatPresenceMediaText)
}

// markRead sends the read receipts of a chat's unread messages: one per sender, as WhatsApp
// takes them. A failure costs only the blue ticks.
func (a *Adapter) markRead(ctx context.Context, c Client, channel string) {
	unread := a.seen.takeUnread(channel)
	var senders []types.JID
	bySender := map[types.JID][]types.MessageID{}
	chats := map[types.JID]types.JID{}
	for _, m := range unread {
		if _, ok := bySender[m.sender]; !ok {
			senders = append(senders, m.sender)
		}
		bySender[m.sender] = append(bySender[m.sender], m.id)
		chats[m.sender] = m.chat
	}
	for _, s := range senders {
		if err := c.MarkRead(ctx, bySender[s], a.now(), chats[s], s); err != nil {
			a.log.Debug("could not send read receipts", "chat", channel, "err", err)
		}
	}
}

// target is the connection and the chat to write to.
func (a *Adapter) target(channel string) (Client, types.JID, error) {
	to, err := chatJID(channel)
	if err != nil {
		return nil, types.JID{}, err
	}
	c, err := a.connection()
	if err != nil {
		return nil, types.JID{}, err
	}
	return c, to, nil
}
