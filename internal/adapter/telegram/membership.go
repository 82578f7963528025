package telegram

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// memberLookups bounds the getChatMember calls in flight for one MemberChannels, so a bot in
// many groups answers quickly without a burst Telegram would rate-limit.
const memberLookups = 4

// MemberChannels returns the ids of the channels the bot knows of that userID is in, for the
// sandbox's user isolation. The Bot API cannot list a person's chats, so each group the bot
// has heard from is asked about with getChatMember, once for all its forum topics; the
// person's private chat with the bot is theirs, other people's are not. Membership changes,
// so nothing is remembered between calls. A chat whose lookup fails is left out; the error
// is returned only when every lookup failed.
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	user, err := strconv.ParseInt(userID, 10, 64)
	if err != nil {
		return nil, fmt.Errorf("%q is not a Telegram user id", userID)
	}
	var ids []string
	groups := map[int64][]string{} // chat id → its channels (the chat, its topics)
	for _, c := range a.dir.channels() {
		chatID, _, err := parseChannel(c.ID)
		switch {
		case err != nil:
			continue
		case c.Kind == chat.KindDM:
			if chatID == user {
				ids = append(ids, c.ID)
			}
		default:
			groups[chatID] = append(groups[chatID], c.ID)
		}
	}
	chats := make([]int64, 0, len(groups))
	for id := range groups {
		chats = append(chats, id)
	}
	slices.Sort(chats)

	inChats, err := chat.AskAll(chats, memberLookups, func(chatID int64) ([]string, error) {
		in, err := a.isMember(ctx, chatID, user)
		if err != nil || !in {
			return nil, err
		}
		return groups[chatID], nil
	}, func(chatID int64, err error) {
		a.log.Warn("could not tell whether a person is in a chat; their commands will not see it", "user", userID, "chat", chatID, "err", err)
	})
	if err != nil {
		return nil, fmt.Errorf("could not ask Telegram whether %s is in any of the %d chats mom knows: %w", userID, len(chats), err)
	}
	ids = append(ids, inChats...)
	slices.Sort(ids)
	return ids, nil
}

// isMember asks Telegram whether user is in a chat now. A restricted person counts only
// while still in the chat; one who left or was banned does not.
func (a *Adapter) isMember(ctx context.Context, chatID, user int64) (bool, error) {
	var m *models.ChatMember
	err := a.rate.Do(ctx, func() (err error) {
		m, err = a.api.GetChatMember(ctx, &bot.GetChatMemberParams{ChatID: chatID, UserID: user})
		return err
	})
	if err != nil {
		return false, fmt.Errorf("getChatMember of %d in chat %d: %w", user, chatID, explain(err))
	}
	switch m.Type {
	case models.ChatMemberTypeOwner, models.ChatMemberTypeAdministrator, models.ChatMemberTypeMember:
		return true, nil
	case models.ChatMemberTypeRestricted:
		return m.Restricted != nil && m.Restricted.IsMember, nil
	}
	return false, nil
}
