package slack

import (
	"context"
	"fmt"

	slackgo "github.com/slack-go/slack"
)

// MemberChannels returns the ids of the conversations userID is a member of, from
// users.conversations, for the sandbox's user isolation. With a bot token Slack lists a
// private channel or group DM only when the bot is in it too, and the IMs are the bot's own
// with that person: exactly the conversations mom keeps directories for.
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	var ids []string
	cursor := ""
	for {
		var page []slackgo.Channel
		var next string
		err := a.rate.Do(ctx, func() (err error) {
			page, next, err = a.api.GetConversationsForUserContext(ctx, &slackgo.GetConversationsForUserParameters{
				UserID: userID, Cursor: cursor, Limit: 200, ExcludeArchived: true,
				Types: []string{"public_channel", "private_channel", "mpim", "im"},
			})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("could not list %s's channels (users.conversations): %w", userID, explain(err))
		}
		for _, c := range page {
			ids = append(ids, c.ID)
		}
		if next == "" {
			return ids, nil
		}
		cursor = next
	}
}
