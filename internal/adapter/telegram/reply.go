package telegram

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/render"
)

// editEvery keeps status edits well inside Telegram's limits (about one message a second per
// chat, twenty a minute in groups).
const editEvery = 1500 * time.Millisecond

// typingEvery renews "typing…", which Telegram shows for five seconds or until the bot
// sends a message.
const typingEvery = 4 * time.Second

// Reply starts showing a run in a channel (hub.Replier). In a group the status message, which
// becomes the answer, replies to the message that asked; tool details and usage reply to the
// answer. "typing…" shows until the run ends.
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) hub.Reply {
	s := &surface{a: a, channel: channelID}
	if !trigger.IsDM && trigger.EventFile() == "" {
		s.replyTo, _ = strconv.Atoi(trigger.ID)
	}
	status := ""
	if f := trigger.EventFile(); f != "" {
		status = "_Starting event: " + f + "_"
	}
	p := render.NewProgress(ctx, s, render.Style{
		Format: a.html, Split: render.SplitTelegramHTML, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: a.opts.Config.Verbosity,
	}, render.Options{Status: status, Log: a.log.With("channel", channelID)})
	r := &reply{Progress: p, a: a, channel: channelID, stop: make(chan struct{})}
	r.wg.Add(1)
	go func() { defer r.wg.Done(); a.typing(ctx, channelID, r.stop) }()
	return r
}

// reply is one run's reply: the shared progress renderer, "typing…" while it lasts, and
// uploads into the same chat.
type reply struct {
	*render.Progress
	a       *Adapter
	channel string
	stop    chan struct{}
	once    sync.Once
	wg      sync.WaitGroup
}

// Upload sends a file the agent attached to the chat (and topic) of the run.
func (r *reply) Upload(ctx context.Context, hostPath, title string) error {
	return r.a.Upload(ctx, r.channel, chat.File{Path: hostPath, Title: title})
}

// Close stops "typing…" and waits until the answer is on Telegram.
func (r *reply) Close(ctx context.Context) error {
	r.once.Do(func() { close(r.stop) })
	r.wg.Wait()
	return r.Progress.Close(ctx)
}

// typing sends the "typing" chat action until stop is closed. Failures only cost the
// indicator, so they are logged at debug level and not retried.
func (a *Adapter) typing(ctx context.Context, channelID string, stop <-chan struct{}) {
	chatID, topic, err := parseChannel(channelID)
	if err != nil {
		return
	}
	tick := time.NewTicker(typingEvery)
	defer tick.Stop()
	for {
		_, err := a.api.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: chatID, MessageThreadID: topic, Action: models.ChatActionTyping})
		if err != nil {
			a.log.Debug("could not show typing", "channel", channelID, "err", err)
		}
		select {
		case <-tick.C:
		case <-stop:
			return
		case <-ctx.Done():
			return
		}
	}
}

// surface is a channel as the renderer sees it: texts are Telegram HTML already, and a
// "thread" is the chain of replies under a message.
type surface struct {
	a       *Adapter
	channel string
	replyTo int // what the status message replies to; 0 for none
}

func (s *surface) Post(ctx context.Context, threadOf, text string) (string, error) {
	replyTo := s.replyTo
	if threadOf != "" {
		replyTo, _ = strconv.Atoi(threadOf)
	}
	id, err := s.a.sendHTML(ctx, s.channel, replyTo, text)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(id), nil
}

func (s *surface) Update(ctx context.Context, id, text string) error {
	n, err := strconv.Atoi(id)
	if err != nil {
		return err
	}
	return s.a.editHTML(ctx, s.channel, n, text)
}

func (s *surface) Delete(ctx context.Context, id string) error {
	return s.a.Delete(ctx, s.channel, id)
}
