package discord

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/chat"
)

// maxUpload is the largest file a bot may send without server boosts.
const maxUpload = 10 << 20

// retryAfter reads a 429's wait: retry_after in the body (seconds, with a fraction), else the
// Retry-After header (whole seconds).
func retryAfter(err error) (time.Duration, bool) {
	var re *rest.Error
	if !errors.As(err, &re) || re.Response == nil || re.Response.StatusCode != http.StatusTooManyRequests {
		return 0, false
	}
	var body struct {
		RetryAfter float64 `json:"retry_after"`
	}
	if json.Unmarshal(re.RsBody, &body) == nil && body.RetryAfter > 0 {
		return time.Duration(body.RetryAfter * float64(time.Second)), true
	}
	if s, err := strconv.Atoi(re.Response.Header.Get("Retry-After")); err == nil {
		return time.Duration(s) * time.Second, true
	}
	return time.Second, true
}

// Surface is where mom writes in Discord: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Post sends one message of Discord markdown into a channel, or into the thread of
// at.ThreadOf (created from that message when it has none yet, named after at.Topic; below
// it, as a reply, where Discord has no threads). It returns the new message's id.
func (a *Adapter) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	return a.create(ctx, at, discord.MessageCreate{Content: text})
}

// create sends mc where Post sends a message and returns the new message's id.
func (a *Adapter) create(ctx context.Context, at chat.Place, mc discord.MessageCreate) (string, error) {
	target, reply, err := a.threadFor(ctx, at.ChannelID, at.ThreadOf, threadName(at.Topic))
	if err != nil {
		return "", err
	}
	if reply != "" {
		mc.MessageReference = &discord.MessageReference{MessageID: ptr(mustID(reply))}
	}
	var msg *discord.Message
	err = a.rate.Do(ctx, func() (err error) {
		msg, err = a.channels.CreateMessage(mustID(target), mc, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return "", fmt.Errorf("post to Discord channel %s: %w", target, explain(err))
	}
	return msg.ID.String(), nil
}

// threadFor says where a post "in the thread of threadOf" goes: the channel itself when
// threadOf is empty; a thread (its id is the id of the message it was created from); or, in
// DMs and channels that take no threads, the channel with reply naming the message to answer.
func (a *Adapter) threadFor(ctx context.Context, channelID, threadOf, name string) (target, reply string, err error) {
	switch {
	case threadOf == "":
		return channelID, "", nil
	case a.dir.isDM(channelID):
		return channelID, threadOf, nil
	}
	if _, ok := a.dir.parentOf(threadOf); ok {
		return threadOf, "", nil
	}
	a.threadMu.Lock()
	defer a.threadMu.Unlock()
	if _, ok := a.dir.parentOf(threadOf); ok {
		return threadOf, "", nil // created while this call waited
	}
	err = a.rate.Do(ctx, func() error {
		_, err := a.threads.CreateThreadFromMessage(mustID(channelID), mustID(threadOf),
			discord.ThreadCreateFromMessage{Name: name, AutoArchiveDuration: discord.AutoArchiveDuration24h}, rest.WithCtx(ctx))
		return err
	})
	var re *rest.Error
	switch {
	case err == nil, errors.As(err, &re) && re.Code == rest.JSONErrorCodeThreadAlreadyCreatedForMessage:
		a.dir.addThread(threadOf, channelID)
		return threadOf, "", nil
	case errors.As(err, &re) && (re.Code == rest.JSONErrorCodeCannotExecuteActionOnThisChannelType || re.Code == rest.JSONErrorCodeLackPermissionsToPerformAction):
		a.log.Debug("no thread here; replying below the message instead", "channel", channelID, "err", err)
		return channelID, threadOf, nil
	}
	return "", "", fmt.Errorf("create a thread in Discord channel %s: %w", channelID, explain(err))
}

// posted is the channel or thread a message posted at at went to: the thread of at.ThreadOf
// when Post found or made one there, else the channel.
func (a *Adapter) posted(at chat.Place) string {
	if at.ThreadOf == "" {
		return at.ChannelID
	}
	if _, ok := a.dir.parentOf(at.ThreadOf); ok {
		return at.ThreadOf
	}
	return at.ChannelID
}

// Edit replaces a message's text with Discord markdown.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, messageID, text string) error {
	return a.update(ctx, at, messageID, discord.MessageUpdate{Content: &text})
}

// update applies mu to a message the bot posted at at.
func (a *Adapter) update(ctx context.Context, at chat.Place, messageID string, mu discord.MessageUpdate) error {
	channelID := a.posted(at)
	err := a.rate.Do(ctx, func() error {
		_, err := a.channels.UpdateMessage(mustID(channelID), mustID(messageID), mu, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return fmt.Errorf("edit Discord message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Delete removes a message the bot posted.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, messageID string) error {
	channelID := a.posted(at)
	err := a.rate.Do(ctx, func() error {
		return a.channels.DeleteMessage(mustID(channelID), mustID(messageID), rest.WithCtx(ctx))
	})
	if err != nil {
		return fmt.Errorf("delete Discord message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Upload sends a file from the host into the channel (or the thread of at.ThreadOf) as a
// message with the file attached; the title, when it says more than the name, is its text.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
	name := f.Name
	if f.Size > maxUpload {
		return fmt.Errorf("upload to Discord: %s is %d MB, over Discord's %d MB limit for bots", name, f.Size>>20, maxUpload>>20)
	}
	target, reply, err := a.threadFor(ctx, at.ChannelID, at.ThreadOf, threadName(at.Topic))
	if err != nil {
		return err
	}
	text := ""
	if f.Title != "" && f.Title != name {
		text = a.format("**" + f.Title + "**")
	}
	err = a.rate.Do(ctx, func() error {
		file := io.NewSectionReader(f.Content, 0, f.Size)
		mc := discord.MessageCreate{Content: text, Files: []*discord.File{discord.NewFile(name, "", file)}}
		if reply != "" {
			mc.MessageReference = &discord.MessageReference{MessageID: ptr(mustID(reply))}
		}
		_, err = a.channels.CreateMessage(mustID(target), mc, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return fmt.Errorf("upload %s to Discord channel %s: %w", name, target, explain(err))
	}
	return nil
}

// Typing shows "mom is typing…" where at is, the thread of at.ThreadOf or else the channel,
// for ten seconds or until mom posts there (render.Typist).
func (a *Adapter) Typing(ctx context.Context, at chat.Place) error {
	where := at.ChannelID
	if at.ThreadOf != "" {
		where = at.ThreadOf
	}
	return a.channels.SendTyping(mustID(where), rest.WithCtx(ctx))
}

// mustID reads a Discord id. The ids mom passes come from Discord, so a bad one is a bug; it
// reads as 0, which Discord answers with a clear "Unknown Channel" or "Unknown Message".
func mustID(s string) snowflake.ID {
	id, _ := snowflake.Parse(s)
	return id
}

func ptr[T any](v T) *T { return &v }
