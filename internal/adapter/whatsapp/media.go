//go:build !nowhatsapp

package whatsapp

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"google.golang.org/protobuf/proto"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/chat"
)

// maxUpload is the largest file mom sends: WhatsApp takes documents up to 2 GB, but the
// upload is encrypted in memory, and a chat is no place for more.
const maxUpload = 100 << 20

// maxImage is the largest picture WhatsApp sends as a picture; a larger one goes as a document.
const maxImage = 16 << 20

// remoteFile is a file a message carries, on WhatsApp's media servers, encrypted.
type remoteFile struct {
	msg  whatsmeow.DownloadableMessage
	name string
	mime string
	size int64
}

// mediaOf lists the file of a message: an image, a document, an audio file or voice note, a
// video or a sticker. WhatsApp gives only documents a name; the others are named by kind,
// with the extension of their type.
func mediaOf(m *waE2E.Message) []remoteFile {
	f := func(msg whatsmeow.DownloadableMessage, name, mimeType string, size uint64) []remoteFile {
		return []remoteFile{{msg: msg, name: name, mime: baseType(mimeType), size: int64(size)}}
	}
	switch {
	case m.ImageMessage != nil:
		v := m.ImageMessage
		return f(v, "image"+extOf(v.GetMimetype(), ".jpg"), v.GetMimetype(), v.GetFileLength())
	case m.DocumentMessage != nil:
		v := m.DocumentMessage
		name := strings.TrimSpace(v.GetFileName())
		if name == "" {
			name = "document" + extOf(v.GetMimetype(), "")
		}
		return f(v, name, v.GetMimetype(), v.GetFileLength())
	case m.AudioMessage != nil:
		v := m.AudioMessage
		if v.GetPTT() {
			return f(v, "voice"+extOf(v.GetMimetype(), ".ogg"), v.GetMimetype(), v.GetFileLength())
		}
		return f(v, "audio"+extOf(v.GetMimetype(), ".m4a"), v.GetMimetype(), v.GetFileLength())
	case m.VideoMessage != nil:
		v := m.VideoMessage
		return f(v, "video"+extOf(v.GetMimetype(), ".mp4"), v.GetMimetype(), v.GetFileLength())
	case m.StickerMessage != nil:
		v := m.StickerMessage
		return f(v, "sticker.webp", v.GetMimetype(), v.GetFileLength())
	}
	return nil
}

// mediaExts are the extensions of the types WhatsApp's apps send.
var mediaExts = map[string]string{
	"image/jpeg": ".jpg", "image/png": ".png", "image/webp": ".webp", "image/gif": ".gif",
	"audio/ogg": ".ogg", "audio/mpeg": ".mp3", "audio/mp4": ".m4a", "audio/aac": ".aac", "audio/amr": ".amr",
	"video/mp4": ".mp4", "video/3gpp": ".3gp", "video/quicktime": ".mov",
	"application/pdf": ".pdf", "text/plain": ".txt",
}

// extOf is the extension of a MIME type, or def.
func extOf(mimeType, def string) string {
	if e, ok := mediaExts[baseType(mimeType)]; ok {
		return e
	}
	return def
}

// baseType is a MIME type without its parameters: "audio/ogg; codecs=opus" is "audio/ogg".
func baseType(mimeType string) string {
	t, _, _ := strings.Cut(mimeType, ";")
	return strings.ToLower(strings.TrimSpace(t))
}

// download saves a file of a message into the channel's attachments. whatsmeow fetches it
// from WhatsApp's media servers and decrypts and checks it; a failure is kept in the
// attachment, so the model hears of the file and why it is missing.
func (a *Adapter) download(ctx context.Context, c Client, channel string, ts time.Time, f remoteFile) chat.Attachment {
	file := fetch.File{Name: f.name, MimeType: f.mime, Size: f.size}
	return a.fetch.Save(ctx, channel, ts, file, func(ctx context.Context) (io.ReadCloser, error) {
		data, err := c.Download(ctx, f.msg)
		if err != nil {
			return nil, downloadError(err)
		}
		return io.NopCloser(bytes.NewReader(data)), nil
	})
}

// downloadError words a failed download for the model and the log.
func downloadError(err error) error {
	var he whatsmeow.DownloadHTTPError
	if errors.As(err, &he) && he.Response != nil && (he.StatusCode == http.StatusNotFound || he.StatusCode == http.StatusGone) {
		return fmt.Errorf("WhatsApp no longer has the file (its servers keep files only for a while): %w", err)
	}
	return fmt.Errorf("could not download the file from WhatsApp: %w", err)
}

// Upload sends a file from the host into the chat, quoting at.ThreadOf when it is set: a JPEG
// or PNG picture as a picture, anything else as a document with its name. The title becomes
// the caption.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
	c, to, err := a.target(at.ChannelID)
	if err != nil {
		return err
	}
	switch {
	case f.Size == 0:
		return fmt.Errorf("upload to WhatsApp: %s is empty, and WhatsApp does not send empty files", f.Name)
	case f.Size > maxUpload:
		return fmt.Errorf("upload to WhatsApp: %s is %d MB, and mom sends files only up to %d MB", f.Name, f.Size>>20, maxUpload>>20)
	}
	data, err := io.ReadAll(io.NewSectionReader(f.Content, 0, f.Size))
	if err != nil {
		return fmt.Errorf("upload %s to WhatsApp: %w", f.Name, err)
	}
	sniffed := baseType(http.DetectContentType(data))
	picture := (sniffed == "image/jpeg" || sniffed == "image/png") && f.Size <= maxImage
	kind := whatsmeow.MediaDocument
	if picture {
		kind = whatsmeow.MediaImage
	}
	up, err := c.Upload(ctx, data, kind)
	if err != nil {
		return fmt.Errorf("upload %s to WhatsApp: %w", f.Name, err)
	}
	caption := strings.TrimSpace(f.Title)
	if caption == f.Name {
		caption = ""
	}
	ci := a.contextFor(chat.Place{ChannelID: at.ChannelID, ThreadOf: at.ThreadOf}, "")
	var msg *waE2E.Message
	if picture {
		msg = &waE2E.Message{ImageMessage: &waE2E.ImageMessage{
			URL: proto.String(up.URL), DirectPath: proto.String(up.DirectPath), MediaKey: up.MediaKey,
			Mimetype: proto.String(sniffed), FileEncSHA256: up.FileEncSHA256, FileSHA256: up.FileSHA256,
			FileLength: proto.Uint64(up.FileLength), Caption: optional(caption), ContextInfo: ci,
		}}
	} else {
		msg = &waE2E.Message{DocumentMessage: &waE2E.DocumentMessage{
			URL: proto.String(up.URL), DirectPath: proto.String(up.DirectPath), MediaKey: up.MediaKey,
			Mimetype: proto.String(documentType(f.Name, sniffed)), FileEncSHA256: up.FileEncSHA256, FileSHA256: up.FileSHA256,
			FileLength: proto.Uint64(up.FileLength), FileName: proto.String(f.Name), Title: proto.String(f.Name),
			Caption: optional(caption), ContextInfo: ci,
		}}
	}
	if _, err := a.send(ctx, c, at.ChannelID, to, msg, caption); err != nil {
		return fmt.Errorf("upload %s: %w", f.Name, err)
	}
	return nil
}

// documentType is the MIME type a document is sent with: by its name's extension, else as
// its content looks.
func documentType(name, sniffed string) string {
	if t := mime.TypeByExtension(strings.ToLower(filepath.Ext(name))); t != "" {
		return baseType(t)
	}
	return sniffed
}

// optional is s as an optional proto field: absent when empty.
func optional(s string) *string {
	if s == "" {
		return nil
	}
	return proto.String(s)
}
