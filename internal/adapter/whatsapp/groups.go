//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"fmt"
	"slices"

	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/chat"
)

// memberLookups bounds the group lookups in flight for one MemberChannels.
const memberLookups = 4

// GroupOf is the group a channel is (its JID, as "groups" lists it), or "" for a 1:1 chat.
func (a *Adapter) GroupOf(channelID string) string {
	jid, err := chatJID(channelID)
	if err != nil || jid.Server != types.GroupServer {
		return ""
	}
	return jid.String()
}

// AnyMember asks WhatsApp whether one of userIDs (phone numbers, as "admins" lists them) is
// in a group now.
func (a *Adapter) AnyMember(ctx context.Context, group string, userIDs []string) (bool, error) {
	c, jid, err := a.target(group)
	if err != nil {
		return false, err
	}
	g, err := c.GetGroupInfo(ctx, jid)
	if err != nil {
		return false, fmt.Errorf("could not ask WhatsApp who is in group %s: %w", group, err)
	}
	for _, p := range g.Participants {
		if slices.ContainsFunc(participantIDs(p), func(id string) bool { return slices.Contains(userIDs, id) }) {
			return true, nil
		}
	}
	return false, nil
}

// participantIDs are the ids a group's participant may be known by: their number, and their
// hidden id in groups that hide numbers.
func participantIDs(p types.GroupParticipant) []string {
	var ids []string
	for _, j := range []types.JID{p.JID, p.PhoneNumber, p.LID} {
		if !j.IsEmpty() {
			ids = append(ids, userID(j))
		}
	}
	return ids
}

// MemberChannels returns the ids of the chats mom knows of that userID is in, for the
// sandbox's user isolation: their own 1:1 chat with mom, and each group WhatsApp says they are
// in now (asked afresh: membership changes). A group whose lookup fails is left out; the error
// is returned only when every lookup failed.
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	c, err := a.connection()
	if err != nil {
		return nil, err
	}
	var ids []string
	var groups []string
	for _, ch := range a.dir.channels() {
		switch {
		case ch.Kind == chat.KindGroup:
			groups = append(groups, ch.ID)
		case a.dir.dmOf(ch.ID) == userID:
			ids = append(ids, ch.ID)
		}
	}
	in, err := chat.AskAll(groups, memberLookups, func(group string) ([]string, error) {
		jid, err := chatJID(group)
		if err != nil {
			return nil, err
		}
		g, err := c.GetGroupInfo(ctx, jid)
		if err != nil {
			return nil, err
		}
		for _, p := range g.Participants {
			if slices.Contains(participantIDs(p), userID) {
				return []string{group}, nil
			}
		}
		return nil, nil
	}, func(group string, err error) {
		a.log.Warn("could not tell whether a person is in a group; their commands will not see it", "user", userID, "group", group, "err", err)
	})
	if err != nil {
		return nil, fmt.Errorf("could not ask WhatsApp whether %s is in any of the %d groups mom knows: %w", userID, len(groups), err)
	}
	ids = append(ids, in...)
	slices.Sort(ids)
	return ids, nil
}
