package render

import (
	"context"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// Uploader sends a file into a channel; the chat adapters implement it (chat.Adapter).
type Uploader interface {
	Upload(ctx context.Context, channelID string, f chat.File) error
}

// Reply is one run's reply on a chat platform (a run.Reply): the Progress, files uploaded to
// where the reply is, and the platform's typing indicator while the run lasts, where it has
// one.
type Reply struct {
	*Progress
	to       Uploader
	channel  string
	threadOf string

	stopTyping context.CancelFunc
	typing     sync.WaitGroup
}

// NewReply wraps p into a reply whose files go to channelID, in the thread of threadOf when
// it is not empty.
func NewReply(p *Progress, to Uploader, channelID, threadOf string) *Reply {
	return &Reply{Progress: p, to: to, channel: channelID, threadOf: threadOf, stopTyping: func() {}}
}

// ReplyThread is the thread a reply to trigger goes into: the thread the trigger was written
// in, unless the adapter is set to reply in the channel. DMs and events are answered at the
// top level.
func ReplyThread(in ReplyIn, trigger chat.Message) string {
	if in == ReplyInChannel || trigger.IsDM {
		return ""
	}
	return trigger.ReplyTo
}

// EventStatus is the first status text of a run that an event started, naming the event
// file; for a run a person started it is "", which shows "_Thinking…_".
func EventStatus(trigger chat.Message) string {
	if f := trigger.EventFile(); f != "" {
		return "_Starting event: " + f + "_"
	}
	return ""
}

// KeepTyping shows the platform's typing indicator through send now and every interval until
// Close, or until ctx ends. Failures only cost the indicator, so they are logged at debug
// level and not retried. Call it once, right after NewReply.
func (r *Reply) KeepTyping(ctx context.Context, every time.Duration, send func(context.Context) error) {
	ctx, r.stopTyping = context.WithCancel(ctx)
	r.typing.Add(1)
	go func() {
		defer r.typing.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			if err := send(ctx); err != nil && ctx.Err() == nil {
				r.log.Debug("could not show the typing indicator", "err", err)
			}
			select {
			case <-tick.C:
			case <-ctx.Done():
				return
			}
		}
	}()
}

// Upload sends a file the agent attached to where the reply is.
func (r *Reply) Upload(ctx context.Context, f chat.File) error {
	f.ThreadOf = r.threadOf
	return r.to.Upload(ctx, r.channel, f)
}

// Close stops the typing indicator and waits until the final state is on the platform.
func (r *Reply) Close(ctx context.Context) error {
	r.stopTyping()
	r.typing.Wait()
	return r.Progress.Close(ctx)
}
