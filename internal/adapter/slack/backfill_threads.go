package slack

import (
	"context"
	"errors"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/store"
)

// Thread catch-up bounds, per channel: the lines of log.jsonl read for the threads mom already
// follows, and, across all the channel's threads, the conversations.replies calls made and the
// replies kept. conversations.replies is in Slack's Tier 3 (about 50 calls a minute); a call
// Slack refuses with 429 waits out its Retry-After (the adapter's Retrier).
const (
	threadTail     = 200
	threadMaxPages = 100
	threadMax      = 1000
)

// threadsToCatchUp lists the threads that may have replies newer than since, the likeliest
// first. conversations.history answers only with top-level messages, so the threads are
// found three ways: parents in its answer whose latest_reply is newer; replies in it that were
// also sent to the channel (thread_broadcast), whose parent may be older than since; and the
// threads of the channel's recently logged messages, whose parents are older than since and so
// not in the answer at all.
func (a *Adapter) threadsToCatchUp(ch *store.Channel, history []slackgo.Message, since time.Time) []string {
	var threads []string
	seen := map[string]bool{}
	add := func(ts string) {
		if _, err := parseTS(ts); err == nil && !seen[ts] {
			seen[ts] = true
			threads = append(threads, ts)
		}
	}
	for _, m := range history {
		switch {
		case m.ReplyCount > 0 && since.Before(mustTS(m.LatestReply)):
			add(m.Timestamp)
		case m.SubType == "thread_broadcast":
			add(m.ThreadTimestamp)
		}
	}
	tail, err := ch.TailMessages(threadTail)
	if err != nil {
		a.log.Warn("could not read the threads mom followed; replies posted in them while it was away are not caught up",
			"channel", ch.ID(), "err", err)
	}
	for i := len(tail) - 1; i >= 0; i-- { // the most recently active first
		if tail[i].ReplyTo != "" {
			add(tail[i].ReplyTo)
		}
	}
	return threads
}

// threadReplies reads the replies newer than since in each thread with conversations.replies,
// oldest first within a thread, at most threadMax replies in threadMaxPages calls. A thread
// that cannot be read is skipped with a warning, so one deleted thread does not hide the rest.
func (a *Adapter) threadReplies(ctx context.Context, channelID string, threads []string, since time.Time) []slackgo.Message {
	var out []slackgo.Message
	pages := 0
	for _, thread := range threads {
		cursor := ""
		for {
			if pages == threadMaxPages || len(out) >= threadMax {
				a.log.Warn("more was said in threads while mom was away than it catches up on; the rest is not in the log",
					"channel", channelID, "caught up", len(out))
				return out
			}
			pages++
			var msgs []slackgo.Message
			var more bool
			var next string
			err := a.rate.Do(ctx, func() (err error) {
				msgs, more, next, err = a.api.GetConversationRepliesContext(ctx, &slackgo.GetConversationRepliesParameters{
					ChannelID: channelID, Timestamp: thread, Oldest: formatTS(since), Inclusive: false,
					Limit: backfillPageSize, Cursor: cursor,
				})
				return err
			})
			if ctx.Err() != nil {
				return out
			}
			if err != nil {
				a.threadUnreadable(channelID, thread, err)
				break
			}
			// Slack puts the parent first, however old it is.
			for _, m := range msgs {
				if since.Before(mustTS(m.Timestamp)) && len(out) < threadMax {
					out = append(out, m)
				}
			}
			if !more || next == "" {
				break
			}
			cursor = next
		}
	}
	return out
}

// threadUnreadable reports a thread conversations.replies refused. A thread whose parent was
// deleted with no replies left is gone for good and not worth a warning on every start.
func (a *Adapter) threadUnreadable(channelID, thread string, err error) {
	var se slackgo.SlackErrorResponse
	if errors.As(err, &se) && se.Err == "thread_not_found" {
		a.log.Debug("a thread mom followed is gone", "channel", channelID, "thread", thread)
		return
	}
	a.log.Warn("could not catch up on a thread", "channel", channelID, "thread", thread, "err", explain(err))
}
