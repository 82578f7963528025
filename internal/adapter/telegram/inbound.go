package telegram

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf16"

	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/chat"
)

// A channel is a chat, named by its id ("-1001234567890", or a person's id for a private
// chat), or one topic of a forum chat ("-1001234567890:42", the topic's message_thread_id).

// channelOf is the channel a message belongs to.
func channelOf(m *models.Message) string {
	if m.IsTopicMessage && m.MessageThreadID != 0 {
		return channelID(m.Chat.ID, m.MessageThreadID)
	}
	return channelID(m.Chat.ID, 0)
}

func channelID(chatID int64, topic int) string {
	if topic == 0 {
		return strconv.FormatInt(chatID, 10)
	}
	return strconv.FormatInt(chatID, 10) + ":" + strconv.Itoa(topic)
}

// parseChannel splits a channel id into the chat and the topic.
func parseChannel(id string) (chatID int64, topic int, err error) {
	c, t, hasTopic := strings.Cut(id, ":")
	chatID, err = strconv.ParseInt(c, 10, 64)
	if err == nil && hasTopic {
		topic, err = strconv.Atoi(t)
	}
	if err != nil {
		return 0, 0, fmt.Errorf("%q is not a Telegram channel id (a chat id, or chat id:topic id)", id)
	}
	return chatID, topic, nil
}

// convert turns a Telegram message into a chat.Message and downloads its files; ok is false
// when there is nothing to log. Service messages (joins, pins, topic changes) carry no words
// and are skipped, as are the bot's own messages, which the hub logs itself.
func (a *Adapter) convert(ctx context.Context, m *models.Message) (cm chat.Message, ok bool, err error) {
	if m.From == nil || m.ForumTopicCreated != nil {
		return cm, false, nil // channel posts and service messages
	}
	bot := a.Bot()
	if strconv.FormatInt(m.From.ID, 10) == bot.ID {
		return cm, false, nil
	}
	channel := channelOf(m)
	sender := a.dir.learn(m, channel)
	text, entities := m.Text, m.Entities
	if text == "" {
		text, entities = m.Caption, m.CaptionEntities
	}
	dm := m.Chat.Type == models.ChatTypePrivate
	clean, mentioned := stripMention(text, entities, bot)
	replyTo := ""
	toBot := false
	if r := m.ReplyToMessage; r != nil && r.ForumTopicCreated == nil {
		replyTo = strconv.Itoa(r.ID)
		toBot = r.From != nil && strconv.FormatInt(r.From.ID, 10) == bot.ID
	}
	ts := messageTime(m.Date, a.liveSince())
	cm = chat.Message{
		ID: strconv.Itoa(m.ID), ChannelID: channel, TS: ts, Sender: sender, Text: clean,
		IsMention: dm || mentioned || toBot || isOwnCommand(text, entities), IsDM: dm, ReplyTo: replyTo,
	}
	if clean != text {
		cm.RawText = text
	}
	for _, f := range filesOf(m) {
		cm.Attachments = append(cm.Attachments, a.download(ctx, channel, ts, f))
	}
	// A sticker, a poll, a location: nothing mom can read.
	return cm, strings.TrimSpace(cm.Text) != "" || len(cm.Attachments) > 0, nil
}

// messageTime is when a message was sent. Telegram dates are whole seconds, while the hub
// tells messages sent before mom started (answered late, with a note that they waited for a
// restart, and looked up in the log in case they are there already) from live ones by their
// time; a message dated in the very second mom started could be either. What tells them
// apart is how it came: what was waiting when mom started is in the batches pollLoop asks for
// before it listens (live is zero while it reads them), and keeps its date, so that one sent
// in the second before start-up counts as sent before it; a message in a later batch was sent
// after live, and one dated in the second of live is taken as sent at live, after start-up.
// (One sent while mom was starting, before live, counts as waiting too: mom was restarting.)
func messageTime(date int, live time.Time) time.Time {
	t := time.Unix(int64(date), 0).UTC()
	if !live.IsZero() && t.Before(live) && int64(date) == live.Unix() {
		return live.UTC()
	}
	return t
}

// stripMention removes what addresses the bot from a message and reports whether anything
// did: an @mention of the bot's username (with one space after it), a text_mention of the bot,
// or the @botname of a /command@botname, which stays a plain /command. Other people's
// mentions stay as they are.
func stripMention(text string, entities []models.MessageEntity, bot chat.User) (string, bool) {
	if bot.Username == "" {
		return text, false
	}
	units := utf16.Encode([]rune(text))
	handle := "@" + strings.ToLower(bot.Username)
	type cut struct{ from, to int } // UTF-16 offsets to remove
	var cuts []cut
	for _, e := range entities {
		if e.Offset < 0 || e.Length <= 0 || e.Offset+e.Length > len(units) {
			continue
		}
		span := strings.ToLower(string(utf16.Decode(units[e.Offset : e.Offset+e.Length])))
		switch {
		case e.Type == models.MessageEntityTypeMention && span == handle:
			cuts = append(cuts, cut{e.Offset, e.Offset + e.Length})
		case e.Type == models.MessageEntityTypeTextMention && e.User != nil && strconv.FormatInt(e.User.ID, 10) == bot.ID:
			cuts = append(cuts, cut{e.Offset, e.Offset + e.Length})
		case e.Type == models.MessageEntityTypeBotCommand && strings.HasSuffix(span, handle):
			cuts = append(cuts, cut{e.Offset + e.Length - len(utf16.Encode([]rune(handle))), e.Offset + e.Length})
		}
	}
	if len(cuts) == 0 {
		return text, false
	}
	var out []uint16
	at := 0
	for _, c := range cuts {
		if c.from < at {
			continue
		}
		out = append(out, units[at:c.from]...)
		at = c.to
		if at < len(units) && units[at] == ' ' && (len(out) == 0 || out[len(out)-1] == ' ' || out[len(out)-1] == '\n') {
			at++ // "@mom_bot hi" reads "hi", "ask @mom_bot now" reads "ask now"
		}
	}
	out = append(out, units[at:]...)
	return strings.TrimSpace(string(utf16.Decode(out))), true
}

// remoteFile is a file a message carries.
type remoteFile struct {
	id, name, mime string
	size           int64
}

// filesOf lists the files of a message: a document, the largest size of a photo, audio, video
// or voice. Telegram keeps photos as JPEG and voice notes as Ogg Opus, and gives neither a
// name; audio and video names are optional, so a missing one is made from the kind and type.
func filesOf(m *models.Message) []remoteFile {
	var out []remoteFile
	if d := m.Document; d != nil {
		out = append(out, remoteFile{d.FileID, d.FileName, d.MimeType, d.FileSize})
	}
	if n := len(m.Photo); n > 0 {
		p := m.Photo[n-1] // sizes come smallest first
		out = append(out, remoteFile{p.FileID, "photo.jpg", "image/jpeg", int64(p.FileSize)})
	}
	if v := m.Audio; v != nil {
		out = append(out, remoteFile{v.FileID, nameOr(v.FileName, "audio", v.MimeType), v.MimeType, v.FileSize})
	}
	if v := m.Video; v != nil {
		out = append(out, remoteFile{v.FileID, nameOr(v.FileName, "video", v.MimeType), v.MimeType, v.FileSize})
	}
	if v := m.Voice; v != nil {
		out = append(out, remoteFile{v.FileID, "voice.ogg", v.MimeType, v.FileSize})
	}
	return out
}

// mediaExts are the extensions of the audio and video types Telegram names in mime_type.
var mediaExts = map[string]string{
	"audio/mpeg": ".mp3", "audio/mp4": ".m4a", "audio/x-m4a": ".m4a", "audio/ogg": ".ogg", "audio/flac": ".flac",
	"audio/x-wav": ".wav", "audio/wav": ".wav", "video/mp4": ".mp4", "video/quicktime": ".mov", "video/webm": ".webm",
}

// nameOr is the sender's file name, or kind with the extension of the MIME type.
func nameOr(name, kind, mimeType string) string {
	if name != "" {
		return name
	}
	return kind + mediaExts[strings.ToLower(mimeType)]
}
