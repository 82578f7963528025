package slack

import (
	"context"
	"slices"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
)

// Backfill bounds: messages per channel, the page size asked for, and a cap on pages for a
// workspace whose Slack answers with smaller pages than asked (apps outside the Marketplace
// may get 15 a page). Slack pages from the newest message back, so a channel that said more
// than 1,000 things while mom was away keeps the newest 1,000; they are logged oldest first.
const (
	backfillMax      = 1000
	backfillPageSize = 200
	backfillMaxPages = 100
)

// backfill logs what was said while mom was away in every channel that already has a log,
// from the newest logged message on. The hub sees these messages as history (they are older
// than start-up), so none of them starts a run.
func (a *Adapter) backfill(ctx context.Context, in chat.Inbox) {
	refs, err := a.opts.Store.Channels()
	if err != nil {
		a.log.Warn("could not list channels to catch up on", "err", err)
		return
	}
	for _, ref := range refs {
		if ref.Adapter != a.opts.Name || ctx.Err() != nil {
			continue
		}
		n, err := a.backfillChannel(ctx, in, ref.ID)
		switch {
		case err != nil:
			a.log.Warn("could not catch up on a channel", "channel", ref.ID, "err", explain(err))
		case n > 0:
			a.log.Info("caught up on a channel", "channel", ref.ID, "messages", n)
		}
	}
}

// backfillChannel fetches and logs the messages after the channel's newest logged one.
func (a *Adapter) backfillChannel(ctx context.Context, in chat.Inbox, channelID string) (int, error) {
	ch, err := a.opts.Store.Channel(a.opts.Name, channelID)
	if err != nil {
		return 0, err
	}
	last, ok, err := ch.LastMessage()
	if err != nil || !ok {
		return 0, err
	}
	// Fetch oldest first: with "oldest" set, Slack pages from the newest down, so collect the
	// pages and log them in time order.
	var msgs []slackgo.Message
	cursor := ""
	for range backfillMaxPages {
		var resp *slackgo.GetConversationHistoryResponse
		err := a.rate.Do(ctx, func() (err error) {
			resp, err = a.api.GetConversationHistoryContext(ctx, &slackgo.GetConversationHistoryParameters{
				ChannelID: channelID, Oldest: formatTS(last.TS), Inclusive: false,
				Limit: backfillPageSize, Cursor: cursor,
			})
			return err
		})
		if err != nil {
			return 0, err
		}
		msgs = append(msgs, resp.Messages...)
		cursor = resp.ResponseMetaData.NextCursor
		if len(msgs) >= backfillMax || !resp.HasMore || cursor == "" {
			break
		}
	}
	if len(msgs) > backfillMax {
		msgs = msgs[:backfillMax] // the newest, which came first
	}
	slices.SortFunc(msgs, func(x, y slackgo.Message) int {
		tx, _ := parseTS(x.Timestamp)
		ty, _ := parseTS(y.Timestamp)
		return tx.Compare(ty)
	})
	chType := ""
	if a.dir.isIM(channelID) {
		chType = "im"
	}
	n := 0
	for _, sm := range msgs {
		m := message{channel: channelID, channelType: chType, ts: sm.Timestamp, threadTS: sm.ThreadTimestamp,
			user: sm.User, botID: sm.BotID, subtype: sm.SubType, text: sm.Text, files: sm.Files}
		if !a.wanted(m) || !last.TS.Before(mustTS(sm.Timestamp)) {
			continue
		}
		// A message that also arrived over the socket is skipped.
		ran, err := a.seen.Handle(channelID+"/"+m.ts, func() error {
			done := make(chan error, 1)
			a.lanes.Run(channelID, func() { done <- a.receive(ctx, in, m) })
			return <-done
		})
		if err != nil {
			return n, err
		}
		if ran {
			n++
		}
	}
	return n, nil
}

// mustTS parses a Slack timestamp, reading an unreadable one as the zero time.
func mustTS(ts string) time.Time {
	t, _ := parseTS(ts)
	return t
}
