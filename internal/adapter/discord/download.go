package discord

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/disgoorg/disgo/discord"

	"github.com/mom-agent/mom/internal/chat"
)

// download saves a message attachment from its CDN URL into the channel's attachments.
// Failures are described in the attachment, so the model hears of the file even when it could
// not be fetched. CDN links are signed and need no token, so none is sent.
func (a *Adapter) download(ctx context.Context, channel string, ts time.Time, f discord.Attachment) chat.Attachment {
	name := f.Filename
	if name == "" {
		name = f.ID.String()
	}
	att := chat.Attachment{Filename: name, Size: int64(f.Size)}
	if f.ContentType != nil {
		att.MimeType = *f.ContentType
	}
	fail := func(err error) chat.Attachment {
		a.log.Warn("could not download a file from Discord", "channel", channel, "file", name, "err", err)
		att.Error = err.Error()
		return att
	}
	switch {
	case f.URL == "":
		return fail(errors.New("Discord gave no download address for the file"))
	case f.Size > maxAttachment:
		return fail(fmt.Errorf("the file is %d MB, over mom's limit of %d MB", f.Size>>20, maxAttachment>>20))
	case a.opts.Store == nil:
		return fail(errors.New("mom has no place to keep files"))
	}
	ch, err := a.opts.Store.Channel(a.opts.Name, channel)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
	if err != nil {
		return fail(err)
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return fail(fmt.Errorf("download failed: %w", err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("download failed: Discord's CDN answered %s (the link may have expired)", resp.Status))
	}
	saved, err := ch.SaveAttachment(name, ts, resp.Body, maxAttachment)
	if err != nil {
		return fail(err)
	}
	if saved.MimeType == "" {
		saved.MimeType = att.MimeType
	}
	return saved
}
