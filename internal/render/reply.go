package render

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// Typist is the optional ability of a Surface whose platform shows that the bot is typing.
// A run's Reply calls Typing when the run starts and then every Dialect.TypingEvery until the
// run ends; a failure only costs the indicator.
type Typist interface {
	// Typing shows the indicator at at, for as long as the platform shows it.
	Typing(ctx context.Context, at chat.Place) error
}

// Reply is one run's reply on a chat platform (a run.Reply): the Progress, files uploaded to
// where the reply is, and the platform's typing indicator while the run lasts, where it has
// one.
type Reply struct {
	*Progress
	s  chat.Surface
	at chat.Place // where the reply is, and its files go

	stopTyping context.CancelFunc
	typing     sync.WaitGroup
}

// NewReply starts showing a run that answers trigger on s, written in d: the hub calls it for
// every adapter that does not draw runs its own way. Where the reply goes follows d.Threads: a
// mention inside a thread is answered in that thread unless d.ReplyIn is "channel"; on a
// platform of reply chains or quotes the answer answers the message that asked, in groups. DMs and
// wake-ups are answered at the top level. log receives platform failures; st says which
// status message a run started again reuses, and who hears where the status message is.
func NewReply(ctx context.Context, s chat.Surface, d chat.Dialect, trigger chat.Message, log *slog.Logger, st StatusOptions) *Reply {
	opts := replyOptions(d, trigger, st)
	opts.Log = log
	r := &Reply{Progress: NewProgress(ctx, s, d, opts), s: s, at: opts.At, stopTyping: func() {}}
	if t, ok := s.(Typist); ok && d.TypingEvery > 0 {
		r.keepTyping(ctx, d.TypingEvery, t)
	}
	return r
}

// replyOptions places the reply to trigger in d, as NewReply says.
func replyOptions(d chat.Dialect, trigger chat.Message, st StatusOptions) Options {
	opts := Options{At: chat.Place{ChannelID: trigger.ChannelID, Topic: trigger.Text}, Status: wakeUpStatus(trigger), StatusOptions: st}
	switch d.Threads {
	case chat.InThreads:
		opts.At.ThreadOf = replyThread(ReplyIn(d.ReplyIn), trigger)
	case chat.ReplyChains, chat.Quotes:
		if !trigger.IsDM && trigger.WakeUpFile() == "" {
			opts.ReplyTo = trigger.ID
		}
	}
	return opts
}

// FirstStatus says where NewReply posts the status message of a run that answers trigger in
// d, given st, and its first text, formatted for the platform: what the message says until
// the run's first edit. The hub looks for it after a restart, when mom was killed after
// posting it and before noting its id.
func FirstStatus(d chat.Dialect, trigger chat.Message, st StatusOptions) (at chat.Place, text string) {
	opts := replyOptions(d, trigger, st)
	return opts.top(), fill(d).Format(opts.firstStatus())
}

// replyThread is the thread a reply to trigger goes into: the thread the trigger was written
// in, unless the adapter is set to reply in the channel. DMs and wake-ups are answered at the
// top level.
func replyThread(in ReplyIn, trigger chat.Message) string {
	if in == ReplyInChannel || trigger.IsDM {
		return ""
	}
	return trigger.ReplyTo
}

// wakeUpStatus is the first status text of a run that a wake-up started, naming the wake-up
// file; for a run a person started it is "", which shows "_Thinking…_".
func wakeUpStatus(trigger chat.Message) string {
	if f := trigger.WakeUpFile(); f != "" {
		return "_Starting event: " + f + "_"
	}
	return ""
}

// keepTyping shows the typing indicator where the reply is, now and every interval until
// Close, or until ctx ends. Failures only cost the indicator, so they are logged at debug
// level and not retried.
func (r *Reply) keepTyping(ctx context.Context, every time.Duration, t Typist) {
	ctx, r.stopTyping = context.WithCancel(ctx)
	r.typing.Add(1)
	go func() {
		defer r.typing.Done()
		tick := time.NewTicker(every)
		defer tick.Stop()
		for {
			if err := t.Typing(ctx, r.at); err != nil && ctx.Err() == nil {
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
	return r.s.Upload(ctx, r.at, f)
}

// Close stops the typing indicator and waits until the final state is on the platform.
func (r *Reply) Close(ctx context.Context) error {
	r.stopTyping()
	r.typing.Wait()
	return r.Progress.Close(ctx)
}
