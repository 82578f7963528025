package slack

import (
	"context"
	"fmt"
	"io"
	"slices"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
)

// Download writes a channel's whole history, as Slack has it, to w as plain text: messages
// oldest first, thread replies indented under their parent (the original mom's --download).
// Progress goes to progress.
func (a *Adapter) Download(ctx context.Context, channelID string, w, progress io.Writer) error {
	if _, err := a.api.AuthTestContext(ctx); err != nil {
		return chat.SignInError("Slack", "auth.test", explain(err), authError(err))
	}
	if err := a.dir.load(ctx); err != nil {
		return err
	}
	var top []slackgo.Message
	cursor := ""
	for {
		var resp *slackgo.GetConversationHistoryResponse
		err := a.rate.Do(ctx, func() (err error) {
			resp, err = a.api.GetConversationHistoryContext(ctx, &slackgo.GetConversationHistoryParameters{
				ChannelID: channelID, Limit: 200, Cursor: cursor})
			return err
		})
		if err != nil {
			return fmt.Errorf("could not read the history of %s (conversations.history): %w", channelID, explain(err))
		}
		top = append(top, resp.Messages...)
		fmt.Fprintf(progress, "fetched %d messages\n", len(top))
		cursor = resp.ResponseMetaData.NextCursor
		if !resp.HasMore || cursor == "" {
			break
		}
	}
	slices.Reverse(top) // Slack sends newest first
	for _, m := range top {
		if m.SubType == "thread_broadcast" {
			continue // a reply also sent to the channel: it is written in its thread
		}
		if err := a.writeMessage(ctx, w, m, ""); err != nil {
			return err
		}
		if m.ReplyCount == 0 || m.ThreadTimestamp != m.Timestamp {
			continue
		}
		replies, err := a.replies(ctx, channelID, m.Timestamp)
		if err != nil {
			return err
		}
		for _, r := range replies {
			if err := a.writeMessage(ctx, w, r, "  "); err != nil {
				return err
			}
		}
	}
	return nil
}

// replies returns a thread's replies, without its parent.
func (a *Adapter) replies(ctx context.Context, channelID, ts string) ([]slackgo.Message, error) {
	var out []slackgo.Message
	cursor := ""
	for {
		var msgs []slackgo.Message
		var more bool
		err := a.rate.Do(ctx, func() (err error) {
			msgs, more, cursor, err = a.api.GetConversationRepliesContext(ctx, &slackgo.GetConversationRepliesParameters{
				ChannelID: channelID, Timestamp: ts, Limit: 200, Cursor: cursor})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("could not read a thread of %s (conversations.replies): %w", channelID, explain(err))
		}
		for _, m := range msgs {
			if m.Timestamp != ts {
				out = append(out, m)
			}
		}
		if !more || cursor == "" {
			return out, nil
		}
	}
}

func (a *Adapter) writeMessage(ctx context.Context, w io.Writer, m slackgo.Message, indent string) error {
	ts, err := parseTS(m.Timestamp)
	if err != nil {
		return err
	}
	who := a.dir.sender(ctx, m.User, m.BotID).Username
	text, _ := a.fromSlack(m.Text, "")
	for _, f := range m.Files {
		text += "\n[file: " + f.Name + "]"
	}
	_, err = io.WriteString(w, chat.TranscriptLine(ts, who, text, indent))
	return err
}
