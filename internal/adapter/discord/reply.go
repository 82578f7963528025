package discord

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/render"
)

// editEvery keeps status edits within Discord's limit of five message edits per five seconds
// in a channel.
const editEvery = 1200 * time.Millisecond

// typingEvery renews the typing indicator, which Discord shows for ten seconds.
const typingEvery = 8 * time.Second

// Reply starts showing a run in a channel (hub.Replier). A mention inside a thread is answered
// in that thread unless replyIn is "channel"; DMs and events are answered at the top level.
// The typing indicator stays on until the run ends.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) hub.Reply {
	thread := ""
	if a.opts.Config.ReplyIn != config.ReplyInChannel && !trigger.IsDM {
		thread = trigger.ReplyTo
	}
	status := ""
	if f := trigger.EventFile(); f != "" {
		status = "_Starting event: " + f + "_"
	}
	s := &surface{a: a, channel: channelID, threadName: threadName(trigger.Text)}
	p := render.NewProgress(ctx, s, render.Style{
		Format: a.format, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: a.opts.Config.Verbosity,
	}, render.Options{ThreadOf: thread, Status: status, Log: a.log.With("channel", channelID)})
	r := &reply{Progress: p, a: a, channel: channelID, thread: thread}
	where := channelID
	if thread != "" {
		where = thread
	}
	tctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	r.stopTyping = stop
	r.typing.Add(1)
	go func() { defer r.typing.Done(); a.keepTyping(tctx, where) }()
	return r
}

// keepTyping shows the typing indicator until ctx ends.
func (a *Adapter) keepTyping(ctx context.Context, channelID string) {
	for {
		if err := a.sendTyping(ctx, channelID); err != nil && ctx.Err() == nil {
			a.log.Debug("could not show the typing indicator", "channel", channelID, "err", err)
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(typingEvery):
		}
	}
}

// threadName names the details thread after the request, as people would name it.
func threadName(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	if line == "" {
		return "Details"
	}
	return line
}

// reply is one run's reply: the shared progress renderer, uploads into the same place, and
// the typing indicator.
type reply struct {
	*render.Progress
	a          *Adapter
	channel    string
	thread     string
	stopTyping context.CancelFunc
	typing     sync.WaitGroup
}

// Upload sends a file the agent attached to where the reply is.
func (r *reply) Upload(ctx context.Context, hostPath, title string) error {
	return r.a.Upload(ctx, r.channel, chat.File{Path: hostPath, Title: title, ThreadOf: r.thread})
}

// Close stops the typing indicator and waits for the final state to be posted.
func (r *reply) Close(ctx context.Context) error {
	r.stopTyping()
	r.typing.Wait()
	return r.Progress.Close(ctx)
}

// surface is a channel as the renderer sees it: texts are Discord markdown already. Messages
// posted into a thread are edited and deleted there, so it remembers where each went.
type surface struct {
	a          *Adapter
	channel    string
	threadName string

	mu    sync.Mutex
	where map[string]string // message id → the channel or thread it is in
}

func (s *surface) Post(ctx context.Context, threadOf, text string) (string, error) {
	id, target, err := s.a.postRaw(ctx, s.channel, threadOf, text, s.threadName)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	if s.where == nil {
		s.where = map[string]string{}
	}
	s.where[id] = target
	s.mu.Unlock()
	return id, nil
}

func (s *surface) place(id string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if c, ok := s.where[id]; ok {
		return c
	}
	return s.channel
}

func (s *surface) Update(ctx context.Context, id, text string) error {
	return s.a.updateRaw(ctx, s.place(id), id, text)
}

func (s *surface) Delete(ctx context.Context, id string) error {
	return s.a.Delete(ctx, s.place(id), id)
}
