package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/disgoorg/disgo/discord"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/chat"
)

// download saves a message attachment from its CDN URL into the channel's attachments.
// CDN links are signed and need no token, so none is sent.
func (a *Adapter) download(ctx context.Context, channel string, ts time.Time, f discord.Attachment) chat.Attachment {
	file := fetch.File{Name: f.Filename, Size: int64(f.Size)}
	if file.Name == "" {
		file.Name = f.ID.String()
	}
	if f.ContentType != nil {
		file.MimeType = *f.ContentType
	}
	if f.URL == "" {
		file.Gone = errors.New("Discord gave no download address for the file")
	}
	return a.fetch.Save(ctx, channel, ts, file, func(ctx context.Context) (io.ReadCloser, error) {
		resp, err := a.fetch.Get(ctx, f.URL, nil, "Discord's CDN")
		var status *fetch.StatusError
		if errors.As(err, &status) {
			return nil, fmt.Errorf("%w (the link may have expired)", err)
		}
		if err != nil {
			return nil, err
		}
		return resp.Body, nil
	})
}

// hosts are Discord's servers for files: attachments are on cdn.discordapp.com (and
// media.discordapp.net), and the API's address counts too (apiUrl, where the fake serves
// its CDN). Nothing is sent with a download, but a file is still fetched only from there.
func hosts(api string) fetch.Hosts {
	return fetch.Hosts{Domains: []string{"discordapp.com", "discordapp.net", "discord.com"}, API: api}
}
