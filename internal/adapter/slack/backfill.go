package slack

import (
	"context"
	"slices"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
)

// Backfill bounds for a channel's top-level messages (its threads have their own, see
// threadMax): messages per channel, the page size asked for, and a cap on pages for a
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

// backfillChannel fetches and logs the messages after the channel's newest logged one: the
// channel's own and the replies in its threads, which are logged in the channel as the live
// ones are, all in time order.
func (a *Adapter) backfillChannel(ctx context.Context, in chat.Inbox, channelID string) (int, error) {
	ch, err := a.opts.Store.Channel(a.opts.Name, channelID)
	if err != nil {
		return 0, err
	}
	last, ok, err := ch.LastMessage()
	if err != nil || !ok {
		return 0, err
	}
	msgs, complete, err := a.history(ctx, channelID, last.TS)
	if err != nil {
		return 0, err
	}
	// When history kept only the newest part, replies older than its oldest message would
	// leave a hole before them, so they are left out too.
	since := last.TS
	if !complete && len(msgs) > 0 {
		since = mustTS(msgs[len(msgs)-1].Timestamp)
	}
	threads := a.threadsToCatchUp(ch, msgs, since)
	msgs = append(msgs, a.threadReplies(ctx, channelID, threads, since)...)
	msgs = slices.DeleteFunc(msgs, firstOfEachTS())
	slices.SortFunc(msgs, func(x, y slackgo.Message) int {
		return mustTS(x.Timestamp).Compare(mustTS(y.Timestamp))
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

// history reads the channel's top-level messages after since with conversations.history, the
// newest backfillMax of them, newest first (with "oldest" set, Slack pages from the newest
// down). complete says nothing older was left out.
func (a *Adapter) history(ctx context.Context, channelID string, since time.Time) (msgs []slackgo.Message, complete bool, err error) {
	cursor := ""
	for range backfillMaxPages {
		var resp *slackgo.GetConversationHistoryResponse
		err := a.rate.Do(ctx, func() (err error) {
			resp, err = a.api.GetConversationHistoryContext(ctx, &slackgo.GetConversationHistoryParameters{
				ChannelID: channelID, Oldest: formatTS(since), Inclusive: false,
				Limit: backfillPageSize, Cursor: cursor,
			})
			return err
		})
		if err != nil {
			return nil, false, err
		}
		msgs = append(msgs, resp.Messages...)
		cursor = resp.ResponseMetaData.NextCursor
		if complete = !resp.HasMore || cursor == ""; complete || len(msgs) >= backfillMax {
			break
		}
	}
	if len(msgs) > backfillMax {
		msgs, complete = msgs[:backfillMax], false // the newest, which came first
	}
	if !complete {
		a.log.Warn("more was said while mom was away than it catches up on; the older part is not in the log",
			"channel", channelID, "caught up", len(msgs))
	}
	return msgs, complete, nil
}

// firstOfEachTS returns a filter for slices.DeleteFunc that drops a message whose ts was seen
// already: a new thread's parent and a reply also sent to the channel are in both the history
// and the replies answers.
func firstOfEachTS() func(slackgo.Message) bool {
	seen := map[string]bool{}
	return func(m slackgo.Message) bool {
		dup := seen[m.Timestamp]
		seen[m.Timestamp] = true
		return dup
	}
}

// mustTS parses a Slack timestamp, reading an unreadable one as the zero time.
func mustTS(ts string) time.Time {
	t, _ := parseTS(ts)
	return t
}
