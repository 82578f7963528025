package slack

import (
	"context"
	"fmt"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
)

// findPages bounds how many pages of history FindPost reads (findPageSize messages each).
const (
	findPages    = 5
	findPageSize = 200
)

// FindPost finds the bot's own message at at (the channel's top level, or the thread of
// at.ThreadOf) posted from since until before until whose text is text, and returns the
// oldest one's ts, or ""
// (hub.PostFinder: the status message of a run mom was killed in before it noted its ts). It
// reads up to findPages pages of conversations.history or conversations.replies.
func (a *Adapter) FindPost(ctx context.Context, at chat.Place, since, until time.Time, text string) (string, error) {
	a.mu.Lock()
	userID, botID := a.bot.ID, a.botID
	a.mu.Unlock()
	own := func(m slackgo.Message) bool {
		ts := mustTS(m.Timestamp)
		return (m.User == userID || (botID != "" && m.BotID == botID)) && m.Text == text &&
			!ts.Before(since) && ts.Before(until)
	}
	found, cursor := "", ""
	for range findPages {
		var msgs []slackgo.Message
		var next string
		err := a.rate.Do(ctx, func() (err error) {
			msgs, next, err = a.findPage(ctx, at, since, until, cursor)
			return err
		})
		if err != nil {
			return "", fmt.Errorf("read back the bot's messages in Slack channel %s: %w", at.ChannelID, explain(err))
		}
		for _, m := range msgs {
			if !own(m) {
				continue
			}
			if at.ThreadOf != "" {
				return m.Timestamp, nil // replies come oldest first
			}
			found = m.Timestamp // history comes newest first: the last one seen is the oldest
		}
		if next == "" {
			break
		}
		cursor = next
	}
	return found, nil
}

// findPage reads one page of what FindPost searches.
func (a *Adapter) findPage(ctx context.Context, at chat.Place, since, until time.Time, cursor string) ([]slackgo.Message, string, error) {
	if at.ThreadOf != "" {
		msgs, more, next, err := a.api.GetConversationRepliesContext(ctx, &slackgo.GetConversationRepliesParameters{
			ChannelID: at.ChannelID, Timestamp: at.ThreadOf, Oldest: formatTS(since), Latest: formatTS(until),
			Inclusive: true, Limit: findPageSize, Cursor: cursor,
		})
		if !more {
			next = ""
		}
		return msgs, next, err
	}
	resp, err := a.api.GetConversationHistoryContext(ctx, &slackgo.GetConversationHistoryParameters{
		ChannelID: at.ChannelID, Oldest: formatTS(since), Latest: formatTS(until), Inclusive: true,
		Limit: findPageSize, Cursor: cursor,
	})
	if err != nil {
		return nil, "", err
	}
	if !resp.HasMore {
		return resp.Messages, "", nil
	}
	return resp.Messages, resp.ResponseMetaData.NextCursor, nil
}
