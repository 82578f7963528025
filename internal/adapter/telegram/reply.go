package telegram

import (
	"context"
	"strconv"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
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
func (a *Adapter) Reply(ctx context.Context, channelID string, trigger chat.Message) run.Reply {
	s := &surface{a: a, channel: channelID}
	if !trigger.IsDM && trigger.EventFile() == "" {
		s.replyTo, _ = strconv.Atoi(trigger.ID)
	}
	p := render.NewProgress(ctx, s, render.Style{
		Format: a.html, Split: render.SplitTelegramHTML, MaxText: MaxText, Edit: true, Delete: true, Threads: true,
		EditEvery: editEvery, Verbosity: render.Verbosity(a.opts.Config.Verbosity),
	}, render.Options{Status: render.EventStatus(trigger), Log: a.log.With("channel", channelID)})
	r := render.NewReply(p, a, channelID, "")
	if chatID, topic, err := parseChannel(channelID); err == nil {
		r.KeepTyping(ctx, typingEvery, func(ctx context.Context) error {
			_, err := a.api.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: chatID, MessageThreadID: topic, Action: models.ChatActionTyping})
			return err
		})
	}
	return r
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
