//go:build !nowhatsapp

package whatsapp

import (
	"sync"
	"time"

	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
)

// remember is how many messages, mom's own and people's, the adapter keeps in mind: enough for
// the runs and notices of a busy hour, to edit, delete, quote and mark read.
const remember = 4096

// maxUnread is how many unread messages of a chat wait for their read receipt.
const maxUnread = 256

// sentLog remembers the messages mom sent: when, for WhatsApp's window for edits, and which
// later message took a message's place once it could no longer be edited.
type sentLog struct {
	mu    sync.Mutex
	msgs  map[string]*sentMsg
	order []string
}

type sentMsg struct {
	id   string
	at   time.Time // when it was sent, by the adapter's clock, taken before sending
	text string    // what it says now
	next string    // the message that continues it, once it was too old to edit
}

func newSentLog() *sentLog { return &sentLog{msgs: map[string]*sentMsg{}} }

func (l *sentLog) add(id string, at time.Time, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.msgs[id] = &sentMsg{id: id, at: at, text: text}
	l.order = append(l.order, id)
	for len(l.order) > remember {
		delete(l.msgs, l.order[0])
		l.order = l.order[1:]
	}
}

// has reports whether mom sent the message id.
func (l *sentLog) has(id string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.msgs[id] != nil
}

// chain is the message id and those that took its place in turn, the newest last; just id when
// mom does not remember it.
func (l *sentLog) chain(id string) []sentMsg {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []sentMsg
	for m := l.msgs[id]; m != nil && len(out) < remember; m = l.msgs[m.next] {
		out = append(out, *m)
	}
	if len(out) == 0 {
		out = append(out, sentMsg{id: id})
	}
	return out
}

// edited records what a message says after an edit.
func (l *sentLog) edited(id, text string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if m := l.msgs[id]; m != nil {
		m.text = text
	}
}

// continued records that next took the place of the newest message of id's chain.
func (l *sentLog) continued(id, next string) {
	c := l.chain(id)
	l.mu.Lock()
	defer l.mu.Unlock()
	if m := l.msgs[c[len(c)-1].id]; m != nil {
		m.next = next
	}
}

// recentLog remembers the messages of the last while by chat: who sent each (a quote names
// the quoted message's sender) with its text, and which people's messages mom has not marked
// read yet.
type recentLog struct {
	mu     sync.Mutex
	msgs   map[string]seenMsg // by channel/id
	order  []string
	unread map[string][]seenMsg // by channel
}

type seenMsg struct {
	id     string
	chat   types.JID // the chat as WhatsApp names it, for read receipts
	sender types.JID
	quote  *waE2E.Message // what a quote of it shows
}

func newRecentLog() *recentLog {
	return &recentLog{msgs: map[string]seenMsg{}, unread: map[string][]seenMsg{}}
}

// add notes a message; unread marks one of people's, for the next read receipt.
func (l *recentLog) add(channel, id string, chatJID, sender types.JID, quote *waE2E.Message, unread bool) {
	m := seenMsg{id: id, chat: chatJID, sender: sender, quote: quote}
	l.mu.Lock()
	defer l.mu.Unlock()
	key := channel + "/" + id
	if _, ok := l.msgs[key]; !ok {
		l.order = append(l.order, key)
	}
	l.msgs[key] = m
	for len(l.order) > remember {
		delete(l.msgs, l.order[0])
		l.order = l.order[1:]
	}
	if unread {
		u := append(l.unread[channel], m)
		if len(u) > maxUnread {
			u = u[len(u)-maxUnread:]
		}
		l.unread[channel] = u
	}
}

func (l *recentLog) get(channel, id string) (seenMsg, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	m, ok := l.msgs[channel+"/"+id]
	return m, ok
}

// takeUnread returns the channel's messages not marked read yet, and forgets them.
func (l *recentLog) takeUnread(channel string) []seenMsg {
	l.mu.Lock()
	defer l.mu.Unlock()
	u := l.unread[channel]
	delete(l.unread, channel)
	return u
}
