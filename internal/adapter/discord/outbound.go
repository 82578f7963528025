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
	"github.com/mom-agent/mom/internal/render"
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

// format converts the model's markdown to Discord's, with @username of known people turned
// into real mentions.
func (a *Adapter) format(md string) string {
	return render.Discord(md, render.IDMention(a.dir.byUsername))
}

// Post sends markdown as one or more messages (split at Discord's limit) and returns the
// first one's id.
func (a *Adapter) Post(ctx context.Context, channelID string, out chat.Outgoing) (string, error) {
	return render.PostParts(render.Split(a.format(out.Text), MaxText), func(part string) (string, error) {
		id, _, err := a.postRaw(ctx, channelID, out.ThreadOf, part, "")
		return id, err
	})
}

// postRaw sends text that is already Discord markdown into a channel, or into the thread of
// threadOf (created from that message when it has none yet; below it, as a reply, where
// Discord has no threads). threadName names a thread it creates. It returns the new message's
// id and the channel or thread it went to.
func (a *Adapter) postRaw(ctx context.Context, channelID, threadOf, text, threadName string) (id, target string, err error) {
	target, reply, err := a.threadFor(ctx, channelID, threadOf, threadName)
	if err != nil {
		return "", "", err
	}
	mc := discord.MessageCreate{Content: text}
	if reply != "" {
		mc.MessageReference = &discord.MessageReference{MessageID: ptr(mustID(reply))}
	}
	var msg *discord.Message
	err = a.rate.Do(ctx, func() (err error) {
		msg, err = a.channels.CreateMessage(mustID(target), mc, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return "", "", fmt.Errorf("post to Discord channel %s: %w", target, explain(err))
	}
	return msg.ID.String(), target, nil
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
	if name == "" {
		name = "Details"
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

// Update replaces a message's text with markdown (cut to Discord's limit).
func (a *Adapter) Update(ctx context.Context, channelID, messageID, text string) error {
	parts := render.Split(a.format(text), MaxText)
	if len(parts) == 0 {
		parts = []string{"\u200b"}
	}
	return a.updateRaw(ctx, channelID, messageID, parts[0])
}

func (a *Adapter) updateRaw(ctx context.Context, channelID, messageID, text string) error {
	err := a.rate.Do(ctx, func() error {
		_, err := a.channels.UpdateMessage(mustID(channelID), mustID(messageID), discord.MessageUpdate{Content: &text}, rest.WithCtx(ctx))
		return err
	})
	if err != nil {
		return fmt.Errorf("edit Discord message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Delete removes a message the bot posted.
func (a *Adapter) Delete(ctx context.Context, channelID, messageID string) error {
	err := a.rate.Do(ctx, func() error {
		return a.channels.DeleteMessage(mustID(channelID), mustID(messageID), rest.WithCtx(ctx))
	})
	if err != nil {
		return fmt.Errorf("delete Discord message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Upload sends a file from the host into the channel (or the thread of f.ThreadOf) as a
// message with the file attached; the title, when it says more than the name, is its text.
func (a *Adapter) Upload(ctx context.Context, channelID string, f chat.File) error {
	name := f.Name
	if f.Size > maxUpload {
		return fmt.Errorf("upload to Discord: %s is %d MB, over Discord's %d MB limit for bots", name, f.Size>>20, maxUpload>>20)
	}
	target, reply, err := a.threadFor(ctx, channelID, f.ThreadOf, "")
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

// sendTyping shows "mom is typing…" in a channel for ten seconds or until mom posts.
func (a *Adapter) sendTyping(ctx context.Context, channelID string) error {
	return a.channels.SendTyping(mustID(channelID), rest.WithCtx(ctx))
}

// mustID reads a Discord id. The ids mom passes come from Discord, so a bad one is a bug; it
// reads as 0, which Discord answers with a clear "Unknown Channel" or "Unknown Message".
func mustID(s string) snowflake.ID {
	id, _ := snowflake.Parse(s)
	return id
}

func ptr[T any](v T) *T { return &v }
