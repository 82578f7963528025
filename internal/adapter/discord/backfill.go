package discord

import (
	"context"
	"fmt"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// backfillPageSize is how many messages a page of Get Channel Messages holds: Discord's most.
const backfillPageSize = 100

// catchUp reads back, in every channel and DM that already has a log, what was said while
// mom was away (intake.CatchUp): Discord keeps no backlog for a bot that was offline, so it is
// read with the REST API, the channel's own messages and those of its active threads, which
// are logged in the channel as the live ones are. A channel or thread that said more than
// 500 things meanwhile keeps the newest 500 (5 pages), and mom's log says so.
func (a *Adapter) catchUp() *intake.CatchUp[discord.Message] {
	each := intake.Limit{Messages: 5 * backfillPageSize, Pages: 5}
	return &intake.CatchUp[discord.Message]{
		Gate: a.gate, Store: a.opts.Store,
		Bounds: intake.Bounds{Channel: each, Thread: each},
		Open:   a.openHistory,
	}
}

// history is a Discord channel's history, read with Get Channel Messages.
type history struct {
	a     *Adapter
	id    snowflake.ID
	guild *snowflake.ID // nil for a DM
}

// openHistory looks a logged channel up (GET /channels/{id}): its guild, nil for a DM. It also
// tells a channel mom can no longer see from one it may read, and learns whom a logged DM is
// with, so user isolation knows it before the person writes again.
func (a *Adapter) openHistory(ctx context.Context, channelID string) (intake.History[discord.Message], error) {
	id, err := snowflake.Parse(channelID)
	if err != nil {
		return nil, fmt.Errorf("%q is not a Discord channel id", channelID)
	}
	var c discord.Channel
	err = a.rate.Do(ctx, func() (err error) {
		c, err = a.channels.GetChannel(id, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("could not look up Discord channel %s (GET /channels/{id}): %w", id, explain(err))
	}
	h := history{a: a, id: id}
	gc, ok := c.(discord.GuildChannel)
	if !ok {
		if dm, ok := c.(discord.DMChannel); ok && len(dm.Recipients) == 1 {
			a.dir.addDM(id.String(), userOf(dm.Recipients[0], nil))
		}
		return h, nil
	}
	a.dir.addChannel(gc)
	g := gc.GuildID()
	h.guild = &g
	return h, nil
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

// Page reads one page of the messages of the channel, or of one of its threads, newer than
// after. Discord answers each page newest first, and the next page is the one before the
// oldest message read, until a page reaches after.
func (h history) Page(ctx context.Context, thread string, after chat.Message, cursor string) ([]discord.Message, string, error) {
	channel := h.id
	if thread != "" {
		channel, _ = snowflake.Parse(thread)
	}
	before, _ := snowflake.Parse(cursor) // 0 for the first page: start from the newest
	var page []discord.Message
	err := h.a.rate.Do(ctx, func() (err error) {
		page, err = h.a.channels.GetMessages(channel, 0, before, 0, backfillPageSize, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return nil, "", fmt.Errorf("could not read the messages of Discord channel %s (GET /channels/{id}/messages): %w", channel, explain(err))
	}
	from := since(after)
	reached := len(page) < backfillPageSize
	var newer []discord.Message
	for _, m := range page {
		if m.ID <= from {
			reached = true
			continue
		}
		newer = append(newer, m)
		if before == 0 || m.ID < before {
			before = m.ID
		}
	}
	if reached {
		return newer, "", nil
	}
	return newer, before.String(), nil
}

// Threads lists the channel's active threads.
func (h history) Threads(context.Context, []discord.Message, chat.Message) []string {
	var out []string
	for _, th := range h.a.dir.threadsOf(h.id.String()) {
		out = append(out, th.String())
	}
	return out
}

// Stamp says which message m is: its snowflake, which the gateway delivers it by too.
func (h history) Stamp(m discord.Message) intake.Stamp {
	return intake.Stamp{Key: m.ID.String(), ID: m.ID.String(), At: m.CreatedAt}
}

// Convert turns a message of the history into the one to log, as a MESSAGE_CREATE would be.
func (h history) Convert(ctx context.Context, m discord.Message) (chat.Message, bool, error) {
	// The REST API leaves out guild_id, which MESSAGE_CREATE carries and placeOf reads.
	m.GuildID = h.guild
	if !h.a.wanted(m) {
		return chat.Message{}, false, nil
	}
	return h.a.convert(ctx, m)
}
