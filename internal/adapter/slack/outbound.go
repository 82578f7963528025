package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	slackgo "github.com/slack-go/slack"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
)

// retryAfter reads the pause Slack asks for when it answers 429.
func retryAfter(err error) (time.Duration, bool) {
	var rl *slackgo.RateLimitedError
	if errors.As(err, &rl) {
		return rl.RetryAfter, true
	}
	return 0, false
}

// mrkdwn converts the model's markdown to Slack's markup, with @username of people in the
// workspace turned into real mentions.
func (a *Adapter) mrkdwn(md string) string {
	return render.Mrkdwn(md, render.IDMention(a.dir.byUsername))
}

// Post sends markdown as one or more messages (split at Slack's limit) and returns the first
// one's ts.
func (a *Adapter) Post(ctx context.Context, channelID string, out chat.Outgoing) (string, error) {
	return render.PostParts(render.Split(a.mrkdwn(out.Text), MaxText), func(part string) (string, error) {
		return a.postRaw(ctx, channelID, out.ThreadOf, part)
	})
}

// postRaw sends text that is already mrkdwn.
func (a *Adapter) postRaw(ctx context.Context, channelID, threadOf, text string) (string, error) {
	opts := []slackgo.MsgOption{slackgo.MsgOptionText(text, false), slackgo.MsgOptionDisableLinkUnfurl()}
	if threadOf != "" {
		opts = append(opts, slackgo.MsgOptionTS(threadOf))
	}
	var ts string
	err := a.rate.Do(ctx, func() (err error) {
		_, ts, err = a.api.PostMessageContext(ctx, channelID, opts...)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("post to Slack channel %s: %w", channelID, explain(err))
	}
	return ts, nil
}

// Update replaces a message's text with markdown (cut to Slack's limit).
func (a *Adapter) Update(ctx context.Context, channelID, messageID, text string) error {
	parts := render.Split(a.mrkdwn(text), MaxText)
	if len(parts) == 0 {
		parts = []string{" "}
	}
	return a.updateRaw(ctx, channelID, messageID, parts[0])
}

func (a *Adapter) updateRaw(ctx context.Context, channelID, ts, text string) error {
	err := a.rate.Do(ctx, func() error {
		_, _, _, err := a.api.UpdateMessageContext(ctx, channelID, ts, slackgo.MsgOptionText(text, false))
		return err
	})
	if err != nil {
		return fmt.Errorf("edit Slack message %s in %s: %w", ts, channelID, explain(err))
	}
	return nil
}

// Delete removes a message the bot posted.
func (a *Adapter) Delete(ctx context.Context, channelID, messageID string) error {
	err := a.rate.Do(ctx, func() error {
		_, _, err := a.api.DeleteMessageContext(ctx, channelID, messageID)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete Slack message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Upload sends a file from the host into the channel (or a thread of it), through Slack's
// three-step external upload.
func (a *Adapter) Upload(ctx context.Context, channelID string, f chat.File) error {
	name := f.Name
	if f.Size == 0 {
		return fmt.Errorf("upload to Slack: %s is empty, and Slack does not take empty files", name)
	}
	title := f.Title
	if title == "" {
		title = name
	}
	err := a.rate.Do(ctx, func() error {
		_, err := a.api.UploadFileContext(ctx, slackgo.UploadFileParameters{
			Reader: io.NewSectionReader(f.Content, 0, f.Size), FileSize: int(f.Size), Filename: name, Title: title,
			Channel: channelID, ThreadTimestamp: f.ThreadOf,
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("upload %s to Slack channel %s: %w", name, channelID, explain(err))
	}
	return nil
}
