package telegram

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/go-telegram/bot"
)

// GroupOf is the chat a channel belongs to: the chat itself, or the forum chat of a topic.
func (a *Adapter) GroupOf(channelID string) string {
	chatID, _, err := parseChannel(channelID)
	if err != nil {
		return ""
	}
	return strconv.FormatInt(chatID, 10)
}

// AnyMember asks Telegram, with getChatMember for each of userIDs in turn, whether one of them
// is in a chat. It answers no only when Telegram said so for every one of them; when some
// could not be asked and none of the others is in the chat, it returns the error.
func (a *Adapter) AnyMember(ctx context.Context, group string, userIDs []string) (bool, error) {
	chatID, err := strconv.ParseInt(group, 10, 64)
	if err != nil {
		return false, fmt.Errorf("%q is not a Telegram chat id", group)
	}
	var errs []error
	for _, id := range userIDs {
		user, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			errs = append(errs, fmt.Errorf("%q is not a Telegram user id (admins are numeric ids)", id))
			continue
		}
		in, err := a.isMember(ctx, chatID, user)
		switch {
		case err != nil:
			errs = append(errs, err)
		case in:
			return true, nil
		}
	}
	return false, errors.Join(errs...)
}

// Leave takes the bot out of a group chat (leaveChat) and forgets the chat's channels.
func (a *Adapter) Leave(ctx context.Context, group string) error {
	chatID, err := strconv.ParseInt(group, 10, 64)
	if err != nil {
		return fmt.Errorf("%q is not a Telegram chat id", group)
	}
	err = a.rate.Do(ctx, func() error {
		_, err := a.api.LeaveChat(ctx, &bot.LeaveChatParams{ChatID: chatID})
		return err
	})
	if err != nil {
		return fmt.Errorf("leaveChat %d: %w", chatID, explain(err))
	}
	a.dir.forgetChat(chatID)
	return nil
}
