package discord

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// Backfill bounds: pages of Get Channel Messages per channel or thread, and messages per page
// (Discord's most). A channel that said more than 500 things while mom was away keeps the
// newest 500, and mom's log says so.
const (
	backfillPages    = 5
	backfillPageSize = 100
)

// backfill queues, for every channel that already has a log, a catch-up on what was said
// while mom was away. Discord keeps no backlog for a bot that was offline, so it is read back
// with the REST API. Each catch-up runs on its channel's lane: messages arriving over the
// gateway meanwhile wait behind it, so the log stays in order, and the dedup set drops those
// that come both ways. The hub sees caught-up messages as history (they are older than
// start-up), so none of them starts a run.
func (a *Adapter) backfill(ctx context.Context, in chat.Inbox) {
	if a.opts.Store == nil {
		return
	}
	refs, err := a.opts.Store.Channels()
	if err != nil {
		a.log.Warn("could not list channels to catch up on", "err", err)
		return
	}
	for _, ref := range refs {
		if ref.Adapter != a.opts.Name {
			continue
		}
		a.lanes.Run(ref.ID, func() {
			n, err := a.backfillChannel(ctx, in, ref.ID)
			switch {
			case err != nil:
				a.log.Warn("could not catch up on a channel", "channel", ref.ID, "err", err)
			case n > 0:
				a.log.Info("caught up on a channel", "channel", ref.ID, "messages", n)
			}
		})
	}
}

// backfillChannel fetches and logs the messages after the channel's newest logged one: the
// channel's own and those of its active threads, which are logged in the channel as the live
// ones are.
func (a *Adapter) backfillChannel(ctx context.Context, in chat.Inbox, channelID string) (int, error) {
	ch, err := a.opts.Store.Channel(a.opts.Name, channelID)
	if err != nil {
		return 0, err
	}
	last, ok, err := ch.LastMessage()
	if err != nil || !ok {
		return 0, err
	}
	id, err := snowflake.Parse(channelID)
	if err != nil {
		return 0, fmt.Errorf("%q is not a Discord channel id", channelID)
	}
	guild, err := a.guildOf(ctx, id)
	if err != nil {
		return 0, err
	}
	after := since(last)
	msgs, err := a.messagesAfter(ctx, id, after)
	if err != nil {
		return 0, err
	}
	for _, th := range a.dir.threadsOf(channelID) {
		more, err := a.messagesAfter(ctx, th, after)
		if err != nil {
			a.log.Warn("could not catch up on a thread", "channel", channelID, "thread", th.String(), "err", err)
		}
		msgs = append(msgs, more...)
	}
	slices.SortFunc(msgs, func(x, y discord.Message) int { return cmp.Compare(x.ID, y.ID) })
	n := 0
	for _, m := range msgs {
		// The REST API leaves out guild_id, which MESSAGE_CREATE carries and placeOf reads.
		m.GuildID = guild
		if !a.wanted(m) {
			continue
		}
		// A message that also came over the gateway is skipped.
		ran, err := a.seen.Handle(m.ID.String(), func() error { return a.receive(ctx, in, m) })
		if err != nil {
			return n, err
		}
		if ran {
			n++
		}
	}
	return n, nil
}

// since is where catching up starts: the newest logged message's own id, or, for mom's own
// lines and events (which carry no Discord id), the id Discord would give a message sent at
// that moment.
func since(last chat.Message) snowflake.ID {
	if id, err := snowflake.Parse(last.ID); err == nil {
		return id
	}
	return snowflake.New(last.TS)
}

// guildOf looks a logged channel up (GET /channels/{id}) and returns its guild, nil for a DM.
// It also tells a channel mom can no longer see from one it may read, and learns whom a
// logged DM is with, so user isolation knows it before the person writes again.
func (a *Adapter) guildOf(ctx context.Context, id snowflake.ID) (*snowflake.ID, error) {
	var c discord.Channel
	err := a.rate.Do(ctx, func() (err error) {
		c, err = a.channels.GetChannel(id, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("could not look up Discord channel %s (GET /channels/{id}): %w", id, explain(err))
	}
	gc, ok := c.(discord.GuildChannel)
	if !ok {
		if dm, ok := c.(discord.DMChannel); ok && len(dm.Recipients) == 1 {
			a.dir.addDM(id.String(), userOf(dm.Recipients[0], nil))
		}
		return nil, nil
	}
	a.dir.addChannel(gc)
	g := gc.GuildID()
	return &g, nil
}

// messagesAfter reads a channel's messages newer than after, at most backfillPages pages.
// It pages back from the newest (Discord answers each page newest first) until it reaches
// after, so when more was said than it reads, what it keeps is the most recent, as for Slack.
func (a *Adapter) messagesAfter(ctx context.Context, channel, after snowflake.ID) ([]discord.Message, error) {
	var all []discord.Message
	var before snowflake.ID // 0: start from the newest
	for range backfillPages {
		var page []discord.Message
		err := a.rate.Do(ctx, func() (err error) {
			page, err = a.channels.GetMessages(channel, 0, before, 0, backfillPageSize, rest.WithCtx(ctx))
			return err
		})
		if err != nil {
			return all, fmt.Errorf("could not read the messages of Discord channel %s (GET /channels/{id}/messages): %w", channel, explain(err))
		}
		reached := len(page) < backfillPageSize
		for _, m := range page {
			if m.ID <= after {
				reached = true
				continue
			}
			all = append(all, m)
			if before == 0 || m.ID < before {
				before = m.ID
			}
		}
		if reached {
			return all, nil
		}
	}
	a.log.Warn("more was said while mom was away than it catches up on; the older part is not in the log",
		"channel", channel.String(), "caught up", len(all))
	return all, nil
}
