package discord

import (
	"context"
	"fmt"
	"time"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// findPages bounds how many pages of 100 messages FindPost reads.
const findPages = 10

// FindPost finds the bot's own message at at (a channel, or the thread of at.ThreadOf where
// Post put one) sent from since until before until whose content is text, and returns the
// oldest one's id, or ""
// (hub.PostFinder: the status message of a run mom was killed in before it noted the id). It
// reads the channel's messages forwards from since, up to findPages pages.
func (a *Adapter) FindPost(ctx context.Context, at chat.Place, since, until time.Time, text string) (string, error) {
	channel, err := snowflake.Parse(a.posted(at))
	if err != nil {
		return "", fmt.Errorf("find a message in Discord channel %q: %w", at.ChannelID, err)
	}
	bot := a.Bot().ID
	after := snowflake.New(since)
	for range findPages {
		var page []discord.Message
		err := a.rate.Do(ctx, func() (err error) {
			page, err = a.channels.GetMessages(channel, 0, 0, after, 100, rest.WithCtx(ctx))
			return err
		})
		if err != nil {
			return "", fmt.Errorf("read back the bot's messages in Discord channel %s: %w", channel, explain(err))
		}
		// A page after an id holds the oldest messages after it, newest first.
		found := ""
		late := false // the page reaches past until
		for _, m := range page {
			if !m.ID.Time().Before(until) {
				late = true
				continue
			}
			if m.Author.ID.String() == bot && m.Content == text {
				found = m.ID.String()
			}
			after = max(after, m.ID)
		}
		if found != "" || late || len(page) < 100 {
			return found, nil
		}
	}
	return "", nil
}
