//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"strings"

	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
)

// A mention on WhatsApp is "@" and the person's number in the text ("@431234567"), with the
// person's JID in the message's ContextInfo.MentionedJID; the apps show the name instead. In a
// group that hides numbers, it is the person's hidden id (LID) in both places.

// me is who mom is in a message: its number, and its hidden id where a group hides numbers.
type me struct{ pn, lid types.JID }

// is reports whether jid, as a message names it, is mom.
func (m me) is(jid string) bool {
	j, err := types.ParseJID(jid)
	return err == nil && m.isJID(j)
}

func (m me) isJID(j types.JID) bool {
	j = j.ToNonAD()
	switch {
	case j.User == "":
		return false
	case j.Server == types.DefaultUserServer:
		return j.User == m.pn.User
	case j.Server == types.HiddenUserServer:
		return !m.lid.IsEmpty() && j.User == m.lid.User
	}
	return false
}

// selfIDs is who mom is in a message. Its hidden id, which only groups that hide numbers use,
// is learnt once from such a group's participants, where mom's entry has both.
func (a *Adapter) selfIDs(ctx context.Context, c Client, info types.MessageInfo, ci *waE2E.ContextInfo) me {
	a.mu.Lock()
	m := me{pn: a.self, lid: a.selfLID}
	a.mu.Unlock()
	if !m.lid.IsEmpty() || !info.IsGroup || !hidesNumbers(info, ci) {
		return m
	}
	g, err := a.dir.groupInfo(ctx, c, info.Chat, a.now())
	if err != nil {
		a.log.Debug("could not look up a group's participants", "group", info.Chat.String(), "err", err)
		return m
	}
	for _, p := range g.Participants {
		if (p.PhoneNumber.User == m.pn.User || p.JID.User == m.pn.User && p.JID.Server == types.DefaultUserServer) && !p.LID.IsEmpty() {
			m.lid = p.LID.ToNonAD()
			a.mu.Lock()
			a.selfLID = m.lid
			a.mu.Unlock()
			break
		}
	}
	return m
}

// hidesNumbers reports whether a message names people by hidden ids.
func hidesNumbers(info types.MessageInfo, ci *waE2E.ContextInfo) bool {
	if info.AddressingMode == types.AddressingModeLID || info.Sender.Server == types.HiddenUserServer {
		return true
	}
	for _, s := range append(ci.GetMentionedJID(), ci.GetParticipant()) {
		if strings.HasSuffix(s, "@"+types.HiddenUserServer) {
			return true
		}
	}
	return false
}

// cleanMentions takes mom's own mention out of a message's text and writes other people's as
// @username, as the model knows them; it reports whether mom was mentioned.
func (a *Adapter) cleanMentions(ctx context.Context, c Client, text string, mentioned []string, m me) (string, bool) {
	found := false
	for _, s := range mentioned {
		j, err := types.ParseJID(s)
		if err != nil || j.User == "" {
			continue
		}
		tag := "@" + j.User
		if m.isJID(j) {
			found = true
			text = removeTag(text, tag)
			continue
		}
		if u := a.dir.learnPerson(ctx, c, j.ToNonAD(), "").Username; u != j.User {
			text = replaceTag(text, tag, "@"+u)
		}
	}
	if found {
		text = strings.TrimSpace(text)
	}
	return text, found
}

// tagAt finds tag in text from byte from on, as a whole mention: not followed by another digit.
func tagAt(text, tag string, from int) int {
	for from <= len(text) {
		i := strings.Index(text[from:], tag)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(tag)
		if end == len(text) || text[end] < '0' || text[end] > '9' {
			return i
		}
		from = end
	}
	return -1
}

// removeTag removes every mention tag from text, with one space after it where that leaves
// the words well apart: "@431234567 hi" reads "hi", "ask @431234567 now" reads "ask now".
func removeTag(text, tag string) string {
	for i := tagAt(text, tag, 0); i >= 0; i = tagAt(text, tag, i) {
		end := i + len(tag)
		if end < len(text) && text[end] == ' ' && (i == 0 || text[i-1] == ' ' || text[i-1] == '\n') {
			end++
		}
		text = text[:i] + text[end:]
	}
	return text
}

// replaceTag writes every mention tag in text as with.
func replaceTag(text, tag, with string) string {
	for i := tagAt(text, tag, 0); i >= 0; i = tagAt(text, tag, i+len(with)) {
		text = text[:i] + with + text[i+len(tag):]
	}
	return text
}
