package discord

import (
	"context"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
)

// editEvery keeps status edits within Discord's limit of five message edits per five seconds
// in a channel.
const editEvery = 1200 * time.Millisecond

// typingEvery renews the typing indicator, which Discord shows for ten seconds.
const typingEvery = 8 * time.Second

// Reply starts showing a run in a channel (hub.Replier). A mention inside a thread is answered
// in that thread unless replyIn is "channel"; DMs and events are answered at the top level.
// The typing indicator stays on until the run ends.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply {
	thread := render.ReplyThread(render.ReplyIn(a.opts.Config.ReplyIn), trigger)
	s := &surface{a: a, channel: channelID, threadName: threadName(trigger.Text)}
	p := render.NewProgress(ctx, s, render.Style{
		Format: a.format, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: render.Verbosity(a.opts.Config.Verbosity),
	}, render.Options{ThreadOf: thread, Status: render.EventStatus(trigger), Log: a.log.With("channel", channelID)})
	r := render.NewReply(p, a, channelID, thread)
	where := channelID
	if thread != "" {
		where = thread
	}
	r.KeepTyping(ctx, typingEvery, func(ctx context.Context) error { return a.sendTyping(ctx, where) })
	return r
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
