package slack

import (
	"context"
	"fmt"
	"slices"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
)

// kindOf says what sort of conversation a message came in: an IM (a DM), a group DM (an mpim,
// whose runs follow the DM policy: anyone can open one with the bot and a colleague) or a
// channel. It goes by the event's channel_type when it has one (app_mention events do not),
// else by the directory, else by conversations.info. When Slack cannot tell, the conversation
// counts as a group DM, the stricter of the two policies a non-IM can fall under by default.
func (a *Adapter) kindOf(ctx context.Context, channel, channelType string) chat.ChannelKind {
	switch channelType {
	case "im":
		return chat.KindDM
	case "mpim":
		return chat.KindGroup
	case "channel", "group":
		return chat.KindChannel
	}
	if a.dir.isIM(channel) {
		return chat.KindDM
	}
	if c, ok := a.dir.channel(channel); ok {
		return c.Kind
	}
	var c *slackgo.Channel
	err := a.rate.Do(ctx, func() (err error) {
		c, err = a.api.GetConversationInfoContext(ctx, &slackgo.GetConversationInfoInput{ChannelID: channel})
		return err
	})
	if err != nil {
		a.log.Warn("could not tell what sort of conversation a message came in (conversations.info); "+
			"treating it as a group DM, where the DM policy decides who may start runs", "channel", channel, "err", explain(err))
		return chat.KindGroup
	}
	a.dir.mu.Lock()
	defer a.dir.mu.Unlock()
	a.dir.addLocked(*c)
	return a.dir.chans[c.ID].Kind
}

// GroupOf is the channel itself: in Slack a channel is the group people are in.
func (a *Adapter) GroupOf(channelID string) string { return channelID }

// AnyMember reports whether one of userIDs is a member of a channel, from conversations.members.
func (a *Adapter) AnyMember(ctx context.Context, channelID string, userIDs []string) (bool, error) {
	cursor := ""
	for {
		var page []string
		var next string
		err := a.rate.Do(ctx, func() (err error) {
			page, next, err = a.api.GetUsersInConversationContext(ctx, &slackgo.GetUsersInConversationParameters{
				ChannelID: channelID, Cursor: cursor, Limit: 200,
			})
			return err
		})
		if err != nil {
			return false, fmt.Errorf("could not list the members of %s (conversations.members): %w", channelID, explain(err))
		}
		for _, id := range page {
			if slices.Contains(userIDs, id) {
				return true, nil
			}
		}
		if next == "" {
			return false, nil
		}
		cursor = next
	}
}
