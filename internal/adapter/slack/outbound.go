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

// Surface is where mom writes in the workspace: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Dialect is how mom writes in Slack: mrkdwn, with @username of people in the workspace
// turned into real mentions; up to MaxText in a message; threads under any message; and the
// placement and verbosity config.json chose.
func (a *Adapter) Dialect() chat.Dialect {
	mrkdwn := func(md string) string { return Mrkdwn(md, render.IDMention(a.dir.byUsername)) }
	return chat.Dialect{Format: mrkdwn, MaxText: MaxText, Edit: true, Delete: true, Threads: chat.InThreads,
		// Within Slack's rate limit for chat.update: about one a second per channel before it
		// starts answering 429.
		EditEvery: 1200 * time.Millisecond,
		Verbosity: string(a.opts.Config.Verbosity), ReplyIn: string(a.opts.Config.ReplyIn)}
}

// Post sends one message of mrkdwn and returns its ts.
func (a *Adapter) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	return a.post(ctx, at, text)
}

// post sends a message of mrkdwn with more options (blocks) and returns its ts.
func (a *Adapter) post(ctx context.Context, at chat.Place, text string, more ...slackgo.MsgOption) (string, error) {
	opts := append([]slackgo.MsgOption{slackgo.MsgOptionText(text, false), slackgo.MsgOptionDisableLinkUnfurl()}, more...)
	if at.ThreadOf != "" {
		opts = append(opts, slackgo.MsgOptionTS(at.ThreadOf))
	}
	var ts string
	err := a.rate.Do(ctx, func() (err error) {
		_, ts, err = a.api.PostMessageContext(ctx, at.ChannelID, opts...)
		return err
	})
	if err != nil {
		return "", fmt.Errorf("post to Slack channel %s: %w", at.ChannelID, explain(err))
	}
	return ts, nil
}

// Edit replaces a message's text with mrkdwn.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, ts, text string) error {
	return a.edit(ctx, at, ts, text)
}

// edit replaces a message's text with mrkdwn, with more options (blocks).
func (a *Adapter) edit(ctx context.Context, at chat.Place, ts, text string, more ...slackgo.MsgOption) error {
	opts := append([]slackgo.MsgOption{slackgo.MsgOptionText(text, false)}, more...)
	err := a.rate.Do(ctx, func() error {
		_, _, _, err := a.api.UpdateMessageContext(ctx, at.ChannelID, ts, opts...)
		return err
	})
	if err != nil {
		return fmt.Errorf("edit Slack message %s in %s: %w", ts, at.ChannelID, explain(err))
	}
	return nil
}

// Delete removes a message the bot posted.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, ts string) error {
	err := a.rate.Do(ctx, func() error {
		_, _, err := a.api.DeleteMessageContext(ctx, at.ChannelID, ts)
		return err
	})
	if err != nil {
		return fmt.Errorf("delete Slack message %s in %s: %w", ts, at.ChannelID, explain(err))
	}
	return nil
}

// Upload sends a file from the host into the channel (or a thread of it), through Slack's
// three-step external upload.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
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
			Channel: at.ChannelID, ThreadTimestamp: at.ThreadOf,
		})
		return err
	})
	if err != nil {
		return fmt.Errorf("upload %s to Slack channel %s: %w", name, at.ChannelID, explain(err))
	}
	return nil
}
