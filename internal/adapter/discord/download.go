package discord

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
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
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, f.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := fetch.Get(a.http, req, "Discord's CDN")
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
