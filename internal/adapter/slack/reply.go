package slack

import (
	"context"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
)

// editEvery keeps status edits within Slack's rate limits for chat.update (about one a
// second per channel before it starts answering 429).
const editEvery = 1200 * time.Millisecond

// Reply starts showing a run in a channel (hub.Replier). A mention inside a thread is answered
// in that thread unless replyIn is "channel"; DMs and events are answered at the top level.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply {
	thread := render.ReplyThread(render.ReplyIn(a.opts.Config.ReplyIn), trigger)
	p := render.NewProgress(ctx, &surface{a: a, channel: channelID}, render.Style{
		Format: a.mrkdwn, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: render.Verbosity(a.opts.Config.Verbosity),
	}, render.Options{ThreadOf: thread, Status: render.EventStatus(trigger), Log: a.log.With("channel", channelID)})
	return render.NewReply(p, a, channelID, thread)
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
