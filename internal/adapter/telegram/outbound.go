package telegram

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// retryAfter reads the pause Telegram asks for when it answers 429.
func retryAfter(err error) (time.Duration, bool) {
	var tm *bot.TooManyRequestsError
	if errors.As(err, &tm) {
		return time.Duration(tm.RetryAfter) * time.Second, true
	}
	return 0, false
}

// markupRefused reports whether Telegram refused a message's HTML, which sending it again as
// plain text fixes.
func markupRefused(err error) bool {
	return errors.Is(err, bot.ErrorBadRequest) && strings.Contains(err.Error(), "can't parse entities")
}

// notModified reports whether an edit failed only because it changed nothing.
func notModified(err error) bool {
	return errors.Is(err, bot.ErrorBadRequest) && strings.Contains(err.Error(), "message is not modified")
}

// sendHTML sends one message of Telegram HTML (at most MaxText long) to a channel, as a reply
// to replyTo when it is not 0, with the inline keyboard kb when it is not nil; if Telegram
// refuses the markup, the same words go as plain text.
func (a *Adapter) sendHTML(ctx context.Context, channelID string, replyTo int, markup string, kb models.ReplyMarkup) (int, error) {
	chatID, topic, err := parseChannel(channelID)
	if err != nil {
		return 0, err
	}
	p := &bot.SendMessageParams{ChatID: chatID, MessageThreadID: topic, Text: markup, ParseMode: models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}, ReplyMarkup: kb}
	if replyTo != 0 {
		p.ReplyParameters = &models.ReplyParameters{MessageID: replyTo, AllowSendingWithoutReply: true}
	}
	send := func() (int, error) {
		var m *models.Message
		err := a.rate.Do(ctx, func() (err error) {
			m, err = a.api.SendMessage(ctx, p)
			return err
		})
		if err != nil {
			return 0, err
		}
		return m.ID, nil
	}
	id, err := send()
	if markupRefused(err) {
		a.log.Warn("Telegram refused the message's formatting; sending it as plain text", "channel", channelID, "err", err)
		p.ParseMode, p.Text = "", Plain(markup)
		id, err = send()
	}
	if err != nil {
		return 0, fmt.Errorf("send to Telegram chat %s: %w", channelID, explain(err))
	}
	return id, nil
}

// editHTML replaces a message's text with Telegram HTML, falling back to plain text as
// sendHTML does. An edit that changes nothing is no failure. Telegram takes away an inline
// keyboard the message had, as no reply_markup is sent.
func (a *Adapter) editHTML(ctx context.Context, channelID string, messageID int, markup string) error {
	chatID, _, err := parseChannel(channelID)
	if err != nil {
		return err
	}
	p := &bot.EditMessageTextParams{ChatID: chatID, MessageID: messageID, Text: markup, ParseMode: models.ParseModeHTML,
		LinkPreviewOptions: &models.LinkPreviewOptions{IsDisabled: bot.True()}}
	edit := func() error {
		return a.rate.Do(ctx, func() error {
			_, err := a.api.EditMessageText(ctx, p)
			return err
		})
	}
	err = edit()
	if markupRefused(err) {
		a.log.Warn("Telegram refused the edit's formatting; sending it as plain text", "channel", channelID, "err", err)
		p.ParseMode, p.Text = "", Plain(markup)
		err = edit()
	}
	if err != nil && !notModified(err) {
		return fmt.Errorf("edit Telegram message %d in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// Surface is where mom writes in Telegram: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Post sends one message of Telegram HTML and returns its id. With at.ThreadOf set, it
// replies to that message.
func (a *Adapter) Post(ctx context.Context, at chat.Place, markup string) (string, error) {
	replyTo, _ := strconv.Atoi(at.ThreadOf)
	id, err := a.sendHTML(ctx, at.ChannelID, replyTo, markup, nil)
	if err != nil {
		return "", err
	}
	return strconv.Itoa(id), nil
}

// Edit replaces a message's text with Telegram HTML.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, messageID, markup string) error {
	id, err := strconv.Atoi(messageID)
	if err != nil {
		return fmt.Errorf("%q is not a Telegram message id", messageID)
	}
	return a.editHTML(ctx, at.ChannelID, id, markup)
}

// Delete removes a message the bot sent.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, messageID string) error {
	channelID := at.ChannelID
	chatID, _, err := parseChannel(channelID)
	if err != nil {
		return err
	}
	id, err := strconv.Atoi(messageID)
	if err != nil {
		return fmt.Errorf("%q is not a Telegram message id", messageID)
	}
	err = a.rate.Do(ctx, func() error {
		_, err := a.api.DeleteMessage(ctx, &bot.DeleteMessageParams{ChatID: chatID, MessageID: id})
		return err
	})
	if err != nil {
		return fmt.Errorf("delete Telegram message %s in %s: %w", messageID, channelID, explain(err))
	}
	return nil
}

// photoExts are the images Telegram shows inline when sent with sendPhoto.
var photoExts = map[string]bool{".jpg": true, ".jpeg": true, ".png": true, ".webp": true}

// maxCaption is the longest caption Telegram takes (UTF-16 units; runes here, which errs on
// the safe side only for text without emoji).
const maxCaption = 1000

// maxPhoto is the largest image sendPhoto takes; larger ones go as documents.
const maxPhoto = 10 << 20

// Upload sends a file from the host into the channel (its topic, if any), as a reply to
// at.ThreadOf when it is set: pictures with sendPhoto so they show inline, anything else (and
// pictures Telegram will not take as photos) with sendDocument. The title becomes the caption.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
	channelID := at.ChannelID
	chatID, topic, err := parseChannel(channelID)
	if err != nil {
		return err
	}
	name := f.Name
	switch {
	case f.Size == 0:
		return fmt.Errorf("upload to Telegram: %s is empty, and Telegram does not take empty files", name)
	case f.Size > maxUpload:
		return fmt.Errorf("upload to Telegram: %s is %d MB, and bots may send files only up to %d MB", name, f.Size>>20, maxUpload>>20)
	}
	replyTo, _ := strconv.Atoi(at.ThreadOf)
	var reply *models.ReplyParameters
	if replyTo != 0 {
		reply = &models.ReplyParameters{MessageID: replyTo, AllowSendingWithoutReply: true}
	}
	caption := strings.TrimSpace(f.Title)
	if caption == name {
		caption = ""
	}
	if r := []rune(caption); len(r) > maxCaption {
		caption = string(r[:maxCaption-1]) + "…"
	}
	upload := func(photo bool) error {
		return a.rate.Do(ctx, func() error {
			in := &models.InputFileUpload{Filename: name, Data: io.NewSectionReader(f.Content, 0, f.Size)}
			var err error
			if photo {
				_, err = a.api.SendPhoto(ctx, &bot.SendPhotoParams{ChatID: chatID, MessageThreadID: topic, Photo: in,
					Caption: caption, ReplyParameters: reply})
			} else {
				_, err = a.api.SendDocument(ctx, &bot.SendDocumentParams{ChatID: chatID, MessageThreadID: topic, Document: in,
					Caption: caption, ReplyParameters: reply})
			}
			return err
		})
	}
	if photoExts[strings.ToLower(filepath.Ext(name))] && f.Size <= maxPhoto {
		if err := upload(true); err == nil || !errors.Is(err, bot.ErrorBadRequest) {
			return uploadErr(name, channelID, err)
		}
		a.log.Info("Telegram would not take the picture as a photo; sending it as a file", "file", name, "err", err)
	}
	return uploadErr(name, channelID, upload(false))
}

// Typing shows "typing…" in the chat of at (its topic, if any) for five seconds or until the
// bot sends a message there (render.Typist).
func (a *Adapter) Typing(ctx context.Context, at chat.Place) error {
	chatID, topic, err := parseChannel(at.ChannelID)
	if err != nil {
		return err
	}
	_, err = a.api.SendChatAction(ctx, &bot.SendChatActionParams{ChatID: chatID, MessageThreadID: topic, Action: models.ChatActionTyping})
	return err
}

func uploadErr(name, channelID string, err error) error {
	if err != nil {
		return fmt.Errorf("upload %s to Telegram chat %s: %w", name, channelID, explain(err))
	}
	return nil
}
