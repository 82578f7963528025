package slack

import (
	"context"
	"errors"
	"slices"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
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

// Threads lists the threads that may have replies newer than after, the likeliest first.
// conversations.history answers only with top-level messages, so the threads are found three
// ways: parents in its answer (own) whose latest_reply is newer; replies in it that were also
// sent to the channel (thread_broadcast), whose parent may be older; and the threads of the
// channel's recently logged messages, whose parents are older and so not in the answer at all.
func (h history) Threads(_ context.Context, own []slackgo.Message, after chat.Message) []string {
	var threads []string
	seen := map[string]bool{}
	add := func(ts string) {
		if _, err := parseTS(ts); err == nil && !seen[ts] {
			seen[ts] = true
			threads = append(threads, ts)
		}
	}
	for _, m := range own {
		switch {
		case m.ReplyCount > 0 && after.TS.Before(mustTS(m.LatestReply)):
			add(m.Timestamp)
		case m.SubType == "thread_broadcast":
			add(m.ThreadTimestamp)
		}
	}
	tail, err := h.log.TailMessages(threadTail)
	if err != nil {
		h.a.log.Warn("could not read the threads mom followed; replies posted in them while it was away are not caught up",
			"channel", h.channel, "err", err)
	}
	for i := len(tail) - 1; i >= 0; i-- { // the most recently active first
		if tail[i].ReplyTo != "" {
			add(tail[i].ReplyTo)
		}
	}
	return threads
}

// replies reads one page of a thread's replies newer than after with conversations.replies,
// oldest first. A thread whose parent was deleted with no replies left is gone for good: it
// reads as empty, not worth a warning on every start.
func (h history) replies(ctx context.Context, thread string, after chat.Message, cursor string) ([]slackgo.Message, string, error) {
	var msgs []slackgo.Message
	var more bool
	var next string
	err := h.a.rate.Do(ctx, func() (err error) {
		msgs, more, next, err = h.a.api.GetConversationRepliesContext(ctx, &slackgo.GetConversationRepliesParameters{
			ChannelID: h.channel, Timestamp: thread, Oldest: formatTS(after.TS), Inclusive: false,
			Limit: backfillPageSize, Cursor: cursor,
		})
		return err
	})
	var se slackgo.SlackErrorResponse
	switch {
	case errors.As(err, &se) && se.Err == "thread_not_found":
		h.a.log.Debug("a thread mom followed is gone", "channel", h.channel, "thread", thread)
		return nil, "", nil
	case err != nil:
		return nil, "", explain(err)
	}
	// Slack puts the parent first, however old it is.
	msgs = slices.DeleteFunc(msgs, func(m slackgo.Message) bool { return !after.TS.Before(mustTS(m.Timestamp)) })
	if !more {
		next = ""
	}
	return msgs, next, nil
}
