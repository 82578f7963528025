package slack

import (
	"context"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// Backfill bounds for a channel's top-level messages (its threads have their own, see
// threadMax): messages per channel, the page size asked for, and a cap on pages for a
// workspace whose Slack answers with smaller pages than asked (apps outside the Marketplace
// may get 15 a page, and one conversations.history call a minute, which is why
// intake.CatchUp reads only a few channels at a time). Slack pages from the newest message
// back, so a channel that said more than 1,000 things while mom was away keeps the newest
// 1,000; they are logged oldest first.
const (
	backfillMax      = 1000
	backfillPageSize = 200
	backfillMaxPages = 100
)

// catchUp reads back, in every channel that already has a log, what was said while mom was
// away (intake.CatchUp): the channel's own messages and the replies in its threads, which
// are logged in the channel as the live ones are. When the channel's own history is cut at
// its bound, replies older than what it kept are left out too.
func (a *Adapter) catchUp() *intake.CatchUp[slackgo.Message] {
	return &intake.CatchUp[slackgo.Message]{
		Gate: a.gate, Store: a.opts.Store,
		Bounds: intake.Bounds{
			Channel:           intake.Limit{Messages: backfillMax, Pages: backfillMaxPages},
			Threads:           intake.Limit{Messages: threadMax, Pages: threadMaxPages},
			ThreadsWithinKept: true,
		},
		Open: a.openHistory,
	}
}

// history is a Slack channel's history: conversations.history for its top-level messages,
// conversations.replies for its threads.
type history struct {
	a       *Adapter
	channel string
	chType  string // "im" for a DM, as message events say
	log     *store.ChannelDir
}

func (a *Adapter) openHistory(_ context.Context, channelID string) (intake.History[slackgo.Message], error) {
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, channelID)
	if err != nil {
		return nil, err
	}
	h := history{a: a, channel: channelID, log: ch}
	if a.dir.isIM(channelID) {
		h.chType = "im"
	}
	return h, nil
}

// Page reads one page of the channel's top-level messages after `after`, newest first (with
// "oldest" set, Slack pages from the newest down), or of a thread's replies, oldest first.
func (h history) Page(ctx context.Context, thread string, after chat.Message, cursor string) ([]slackgo.Message, string, error) {
	if thread != "" {
		return h.replies(ctx, thread, after, cursor)
	}
	var resp *slackgo.GetConversationHistoryResponse
	err := h.a.rate.Do(ctx, func() (err error) {
		resp, err = h.a.api.GetConversationHistoryContext(ctx, &slackgo.GetConversationHistoryParameters{
			ChannelID: h.channel, Oldest: formatTS(after.TS), Inclusive: false,
			Limit: backfillPageSize, Cursor: cursor,
		})
		return err
	})
	if err != nil {
		return nil, "", explain(err)
	}
	if !resp.HasMore {
		return resp.Messages, "", nil
	}
	return resp.Messages, resp.ResponseMetaData.NextCursor, nil
}

// Stamp says which message m is: Slack's ts is its id and its time.
func (h history) Stamp(m slackgo.Message) intake.Stamp {
	return intake.Stamp{Key: key(h.channel, m.Timestamp), ID: m.Timestamp, At: mustTS(m.Timestamp)}
}

// Convert turns a message of the history into the one to log, as a message event would be.
func (h history) Convert(ctx context.Context, sm slackgo.Message) (chat.Message, bool, error) {
	m := message{channel: h.channel, channelType: h.chType, ts: sm.Timestamp, threadTS: sm.ThreadTimestamp,
		user: sm.User, botID: sm.BotID, subtype: sm.SubType, text: sm.Text, files: sm.Files}
	if !h.a.wanted(m) {
		return chat.Message{}, false, nil
	}
	return h.a.convert(ctx, m)
}
