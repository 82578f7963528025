package slack

import (
	"context"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/render"
)

// editEvery keeps status edits within Slack's rate limits for chat.update (about one a
// second per channel before it starts answering 429).
const editEvery = 1200 * time.Millisecond

// Reply starts showing a run in a channel (hub.Replier). A mention inside a thread is answered
// in that thread unless replyIn is "channel"; DMs and events are answered at the top level.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) hub.Reply {
	thread := ""
	if a.opts.Config.ReplyIn != config.ReplyInChannel && !trigger.IsDM {
		thread = trigger.ReplyTo
	}
	status := ""
	if f := trigger.EventFile(); f != "" {
		status = "_Starting event: " + f + "_"
	}
	surface := &surface{a: a, channel: channelID}
	p := render.NewProgress(ctx, surface, render.Style{
		Format: a.mrkdwn, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: a.opts.Config.Verbosity,
	}, render.Options{ThreadOf: thread, Status: status, Log: a.log.With("channel", channelID)})
	return &reply{Progress: p, a: a, channel: channelID, thread: thread}
}

// reply is one run's reply: the shared progress renderer plus uploads into the same place.
type reply struct {
	*render.Progress
	a       *Adapter
	channel string
	thread  string
}

// Upload sends a file the agent attached to where the reply is.
func (r *reply) Upload(ctx context.Context, hostPath, title string) error {
	return r.a.Upload(ctx, r.channel, chat.File{Path: hostPath, Title: title, ThreadOf: r.thread})
}

// surface is a channel as the renderer sees it: texts are mrkdwn already.
type surface struct {
	a       *Adapter
	channel string
}

func (s *surface) Post(ctx context.Context, threadOf, text string) (string, error) {
	return s.a.postRaw(ctx, s.channel, threadOf, text)
}

func (s *surface) Update(ctx context.Context, id, text string) error {
	return s.a.updateRaw(ctx, s.channel, id, text)
}

func (s *surface) Delete(ctx context.Context, id string) error {
	return s.a.Delete(ctx, s.channel, id)
}
