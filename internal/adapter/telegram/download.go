package telegram

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// download saves a file of a message into the channel's attachments. Failures are described
// in the attachment, so the model hears of the file even when it could not be fetched.
func (a *Adapter) download(ctx context.Context, channel string, ts time.Time, f remoteFile) chat.Attachment {
	name := f.name
	if name == "" {
		name = "file"
	}
	att := chat.Attachment{Filename: name, MimeType: f.mime, Size: f.size}
	fail := func(err error) chat.Attachment {
		a.log.Warn("could not download a file from Telegram", "channel", channel, "file", name, "err", err)
		att.Error = err.Error()
		return att
	}
	if f.size > maxAttachment {
		return fail(fmt.Errorf("the file is %d MB, and Telegram lets bots download files only up to %d MB", f.size>>20, maxAttachment>>20))
	}
	ch, err := a.opts.Store.Channel(a.opts.Name, channel)
	if err != nil {
		return fail(err)
	}
	ctx, cancel := context.WithTimeout(ctx, 5*time.Minute)
	defer cancel()
	var file *models.File
	err = a.retry(ctx, func() (err error) {
		file, err = a.api.GetFile(ctx, &bot.GetFileParams{FileID: f.id})
		return err
	})
	if err != nil {
		return fail(fmt.Errorf("Telegram would not hand out the file (getFile): %w", err))
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, a.api.FileDownloadLink(file), nil)
	if err != nil {
		return fail(errors.New("Telegram gave an unusable file path"))
	}
	resp, err := a.http.Do(req)
	if err != nil {
		return fail(fmt.Errorf("download failed: %w", a.redact(err)))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fail(fmt.Errorf("download failed: Telegram answered %s", resp.Status))
	}
	saved, err := ch.SaveAttachment(name, ts, resp.Body, maxAttachment)
	if err != nil {
		return fail(err)
	}
	if saved.MimeType == "" {
		saved.MimeType = f.mime
	}
	return saved
}
