//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"strings"
	"time"

	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"
	"google.golang.org/protobuf/proto"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// onMessage hands a message to the intake gate and waits until it is logged: WhatsApp hears
// that it arrived (the acknowledgement whatsmeow sends when handle returns true) only then.
// The gate drops a message it has taken before (WhatsApp redelivers what was not
// acknowledged, and sends retries), and the hub one logged before mom started.
//
// Stop waits for the handlers that are in here (handling), and none enters once it began, so
// no message reaches the gate's lanes while Stop waits for them.
func (a *Adapter) onMessage(e *events.Message) bool {
	ctx, in, ok := a.enter()
	if !ok {
		return false // not acknowledged, so it comes again to the next mom
	}
	defer a.handling.Done()
	if ignored(e) {
		return true
	}
	channel := a.channelOf(e.Info)
	done := make(chan bool, 1)
	a.gate.Take(ctx, in, intake.Delivery{
		Key: channel + "/" + e.Info.ID, Lane: channel,
		Convert: func(ctx context.Context) (chat.Message, bool, error) { return a.convert(ctx, channel, e) },
		Ack:     func() { done <- true },
		Nack:    func() { done <- false },
	})
	select {
	case ok := <-done:
		return ok
	case <-a.stop:
		return false
	}
}

// enter counts a handler that hands messages to the gate (handling), and returns the context
// and the inbox it works with; ok is false before Start and once Stop began, and then the
// handler must take no message. When ok, the caller calls a.handling.Done when it is done.
func (a *Adapter) enter() (ctx context.Context, in chat.Inbox, ok bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.stopping || a.ctx == nil {
		return nil, nil, false
	}
	a.handling.Add(1)
	return a.ctx, a.in, true
}

// ignored reports whether a message is none of mom's business: status updates (stories),
// channel (newsletter) posts, and protocol messages such as edits, deletions and reactions,
// which change no line of the log.
func ignored(e *events.Message) bool {
	c := e.Info.Chat
	return e.Message == nil || c == types.StatusBroadcastJID || c.Server == types.NewsletterServer ||
		e.Message.GetProtocolMessage() != nil || e.Message.GetReactionMessage() != nil
}

// channelOf is the channel a message belongs to: its chat's JID. A 1:1 chat is named by the
// person's phone number when WhatsApp tells it, also where it addresses the chat by a hidden
// id, so that a person's DMs stay one channel.
func (a *Adapter) channelOf(info types.MessageInfo) string {
	c := info.Chat.ToNonAD()
	if info.IsGroup || c.Server != types.HiddenUserServer {
		return c.String()
	}
	alt := info.SenderAlt
	if info.IsFromMe {
		alt = info.RecipientAlt
	}
	if alt.Server == types.DefaultUserServer {
		return alt.ToNonAD().String()
	}
	return c.String()
}

// convert turns a WhatsApp message into a chat.Message and downloads its files; ok is false
// when there is nothing to log (a poll, a location: nothing mom can read).
func (a *Adapter) convert(ctx context.Context, channel string, e *events.Message) (cm chat.Message, ok bool, err error) {
	return a.readMessage(ctx, channel, e, true)
}

// readMessage is convert, for a message received live, or (live false) one of the phone's
// history: that one keeps its time as it is, its files are noted but not downloaded, and mom
// sends no read receipt for it.
func (a *Adapter) readMessage(ctx context.Context, channel string, e *events.Message, live bool) (cm chat.Message, ok bool, err error) {
	info := e.Info
	text, ci := content(e.Message)
	files := mediaOf(e.Message)
	if strings.TrimSpace(text) == "" && len(files) == 0 {
		return cm, false, nil
	}
	c, err := a.connection()
	if err != nil {
		return cm, false, err
	}
	ts := info.Timestamp.UTC()
	if live {
		ts = a.messageTime(info.Timestamp)
	}
	dm := !info.IsGroup
	if info.IsGroup {
		a.dir.learnGroup(ctx, c, info.Chat, a.now())
	}
	var sender chat.User
	if info.IsFromMe {
		sender = a.Bot() // written on mom's phone: part of the conversation, never a trigger
	} else {
		sender = a.dir.learnPerson(ctx, c, personJID(info), info.PushName)
	}
	if dm && !info.IsFromMe {
		a.dir.learnDM(channel, sender)
	}
	me := a.selfIDs(ctx, c, info, ci)
	clean, mentioned := a.cleanMentions(ctx, c, text, ci.GetMentionedJID(), me)
	clean, prefixed := cutPrefix(clean, a.opts.Config.Prefix)
	replyTo := ci.GetStanzaID()
	toBot := replyTo != "" && (me.is(ci.GetParticipant()) || a.sent.has(replyTo))
	cm = chat.Message{
		ID: info.ID, ChannelID: channel, TS: ts, Sender: sender, Text: clean,
		IsMention: !info.IsFromMe && (dm || mentioned || toBot || prefixed), IsDM: dm, ReplyTo: replyTo,
	}
	if clean != text {
		cm.RawText = text
	}
	for _, f := range files {
		if !live {
			cm.Attachments = append(cm.Attachments, chat.Attachment{Filename: f.name, MimeType: f.mime, Size: f.size, Error: notDownloaded})
			continue
		}
		cm.Attachments = append(cm.Attachments, a.download(ctx, c, channel, ts, f))
	}
	if live {
		a.seen.add(channel, info.ID, info.Chat, info.Sender.ToNonAD(), quotable(text), !info.IsFromMe)
	}
	// A mention alone, with nothing to read, is nothing to log or answer.
	return cm, strings.TrimSpace(cm.Text) != "" || len(cm.Attachments) > 0, nil
}

// personJID is who sent a message, by phone number where WhatsApp tells it.
func personJID(info types.MessageInfo) types.JID {
	s := info.Sender.ToNonAD()
	if s.Server == types.HiddenUserServer && info.SenderAlt.Server == types.DefaultUserServer {
		return info.SenderAlt.ToNonAD()
	}
	return s
}

// messageTime is when a message was sent. WhatsApp's times are whole seconds, while the hub
// runs only messages sent after mom started; so a live message of the very second the adapter
// started is taken as sent at the start, and answered. Until WhatsApp has delivered what was
// sent while mom was away (events.OfflineSyncCompleted), every message is one of those, and
// keeps its time, so that none is run, and one delivered again is known from the log.
func (a *Adapter) messageTime(t time.Time) time.Time {
	a.mu.Lock()
	start, live := a.started, a.conn.caughtUp
	a.mu.Unlock()
	if live && t.Unix() == start.Unix() && t.Before(start) {
		t = start
	}
	return t.UTC()
}

// content is the text of a message (its caption, for a file) and its context: mentions, and
// the message it quotes.
func content(m *waE2E.Message) (string, *waE2E.ContextInfo) {
	switch {
	case m.ExtendedTextMessage != nil:
		return m.ExtendedTextMessage.GetText(), m.ExtendedTextMessage.GetContextInfo()
	case m.ImageMessage != nil:
		return m.ImageMessage.GetCaption(), m.ImageMessage.GetContextInfo()
	case m.VideoMessage != nil:
		return m.VideoMessage.GetCaption(), m.VideoMessage.GetContextInfo()
	case m.DocumentMessage != nil:
		return m.DocumentMessage.GetCaption(), m.DocumentMessage.GetContextInfo()
	case m.AudioMessage != nil:
		return "", m.AudioMessage.GetContextInfo()
	case m.StickerMessage != nil:
		return "", m.StickerMessage.GetContextInfo()
	}
	return m.GetConversation(), nil
}

// quotable is what a quote of a message shows of it: its text.
func quotable(text string) *waE2E.Message {
	return &waE2E.Message{Conversation: proto.String(text)}
}

// cutPrefix takes the configured prefix off the start of text and reports whether it was
// there, ignoring case ("Mom, what's up" with prefix "mom,").
func cutPrefix(text, prefix string) (string, bool) {
	t := strings.TrimSpace(text)
	if prefix == "" || len(t) < len(prefix) || !strings.EqualFold(t[:len(prefix)], prefix) {
		return text, false
	}
	return strings.TrimSpace(t[len(prefix):]), true
}
