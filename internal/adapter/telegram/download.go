package telegram

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/chat"
)

// download saves a file of a message into the channel's attachments: getFile tells where it
// is, and the download address carries the bot token, which errors must not show.
func (a *Adapter) download(ctx context.Context, channel string, ts time.Time, f remoteFile) chat.Attachment {
	file := fetch.File{Name: f.name, MimeType: f.mime, Size: f.size}
	if file.Name == "" {
		file.Name = "file"
	}
	return a.fetch.Save(ctx, channel, ts, file, func(ctx context.Context) (io.ReadCloser, error) {
		var tf *models.File
		err := a.rate.Do(ctx, func() (err error) {
			tf, err = a.api.GetFile(ctx, &bot.GetFileParams{FileID: f.id})
			return err
		})
		if err != nil {
			return nil, fmt.Errorf("Telegram would not hand out the file (getFile): %w", err)
		}
		resp, err := a.fetch.Get(ctx, a.api.FileDownloadLink(tf), nil, "Telegram")
		if err != nil {
			return nil, a.redact(err)
		}
		return resp.Body, nil
	})
}
