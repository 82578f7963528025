package transcribe

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/store"
)

// MaxUpload is the largest file sent: OpenAI's limit, which the others share or exceed.
const MaxUpload = 25 << 20

// callTimeout bounds one upload and its answer: minutes of audio take seconds to transcribe.
const callTimeout = 3 * time.Minute

// Options configure a Transcriber.
type Options struct {
	// BaseURL is where the API is ("https://api.openai.com/v1"); the request goes to
	// BaseURL + "/audio/transcriptions".
	BaseURL string
	// APIKey is sent as a bearer token when not empty.
	APIKey string
	Model  string
	// MaxDuration is the longest audio sent; a longer one gets a note instead.
	MaxDuration time.Duration
	// PricePerMinute is what a minute costs in US dollars; 0 when unknown or free.
	PricePerMinute float64
	// Client sends the requests; nil means one of package httpclient (whose redirects leave
	// the key behind) with callTimeout.
	Client *http.Client
	Log    *slog.Logger
	// Observe, when set, hears of every audio file: its result ("ok", "too_long",
	// "too_large", "failed"), its length in seconds when known, and its cost.
	Observe func(result string, seconds, cost float64)
}

// Transcriber transcribes the audio attachments of messages. It is safe for concurrent use.
type Transcriber struct {
	opts Options
}

// New returns a transcriber.
func New(o Options) *Transcriber {
	if o.Client == nil {
		o.Client = httpclient.New(callTimeout)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	o.BaseURL = strings.TrimSuffix(o.BaseURL, "/")
	return &Transcriber{opts: o}
}

// Transcribe gives every audio attachment of m (saved in ch) a transcript, or a note of why
// it has none. It returns once each has been tried; the message is logged either way. Files
// are opened through the channel, never following a link: the workspace is written by
// commands the model runs.
func (t *Transcriber) Transcribe(ctx context.Context, ch *store.ChannelDir, m *chat.Message) {
	for i := range m.Attachments {
		att := &m.Attachments[i]
		if att.LocalPath == "" || att.Transcript != nil || Kind(*att) == "" {
			continue
		}
		tr, result := t.one(ctx, ch, *att)
		tr.Seconds = math.Round(tr.Seconds*10) / 10
		att.Transcript = tr
		if tr.Error != "" {
			t.opts.Log.Warn("voice note not transcribed", "channel", m.ChannelID, "file", att.LocalPath, "why", tr.Error)
		}
		if t.opts.Observe != nil {
			t.opts.Observe(result, tr.Seconds, tr.Cost)
		}
	}
}

// one transcribes one attachment.
func (t *Transcriber) one(ctx context.Context, ch *store.ChannelDir, att chat.Attachment) (*chat.Transcript, string) {
	f, err := ch.OpenAttachment(att.LocalPath)
	if err != nil {
		return &chat.Transcript{Error: "the file could not be opened: " + err.Error()}, "failed"
	}
	defer f.Close()
	info, err := f.Stat()
	switch {
	case err != nil:
		return &chat.Transcript{Error: "the file could not be read: " + err.Error()}, "failed"
	case !info.Mode().IsRegular():
		return &chat.Transcript{Error: "it is not a regular file"}, "failed"
	case info.Size() > MaxUpload:
		return &chat.Transcript{Error: fmt.Sprintf("the file is %.1f MB; the transcription service takes at most %d MB", float64(info.Size())/(1<<20), MaxUpload>>20)}, "too_large"
	}
	length, known := duration(f, info.Size())
	if known && length > t.opts.MaxDuration {
		return &chat.Transcript{Seconds: length.Seconds(), Error: fmt.Sprintf("it is %s long, and mom transcribes up to %s (transcription.maxMinutes in config.json)",
			Clock(length.Seconds()), Clock(t.opts.MaxDuration.Seconds()))}, "too_long"
	}
	cctx, cancel := context.WithTimeout(ctx, callTimeout)
	defer cancel()
	text, reported, err := t.post(cctx, f, info.Size(), uploadName(att), uploadType(att))
	if err != nil {
		tr := &chat.Transcript{Error: err.Error()}
		if known {
			tr.Seconds = length.Seconds()
		}
		return tr, "failed"
	}
	tr := &chat.Transcript{Text: strings.TrimSpace(text), Model: t.opts.Model}
	switch {
	case reported > 0:
		tr.Seconds = reported
	case known:
		tr.Seconds = length.Seconds()
	}
	if t.opts.PricePerMinute > 0 && tr.Seconds > 0 {
		tr.Cost = tr.Seconds / 60 * t.opts.PricePerMinute
	}
	return tr, "ok"
}

// videoContainers are the video files the API takes, whose sound track it transcribes.
var videoContainers = map[string]bool{".mp4": true, ".mpeg": true, ".webm": true}

// Kind says what sort of audio an attachment is, as the model is told: "voice note" (Ogg,
// what Telegram and WhatsApp record), "audio", or "video" for a video in a container the API
// takes; "" for anything else, which is not transcribed.
func Kind(att chat.Attachment) string {
	mt, _, _ := mime.ParseMediaType(att.MimeType)
	ext := strings.ToLower(path.Ext(att.LocalPath))
	switch {
	case mt == "audio/ogg" || mt == "audio/opus" || ext == ".ogg" || ext == ".oga" || ext == ".opus":
		return "voice note"
	case strings.HasPrefix(mt, "audio/") || audioExts[ext]:
		return "audio"
	case (strings.HasPrefix(mt, "video/") || mt == "") && videoContainers[ext]:
		return "video"
	}
	return ""
}

// audioExts are audio files known by their name when the platform gave no type.
var audioExts = map[string]bool{".mp3": true, ".m4a": true, ".wav": true, ".flac": true, ".mpga": true, ".aac": true, ".amr": true}

// uploadName is the file name the server is told: the server knows the format by its
// extension, so the saved file's name, which keeps the extension, unless the sender's has one.
func uploadName(att chat.Attachment) string {
	name := path.Base(att.LocalPath)
	if path.Ext(att.Filename) != "" && !strings.ContainsAny(att.Filename, "/\\\"\r\n") {
		name = att.Filename
	}
	return name
}

// uploadType is the file part's Content-Type.
func uploadType(att chat.Attachment) string {
	if mt, _, err := mime.ParseMediaType(att.MimeType); err == nil && mt != "" {
		return mt
	}
	if t := mime.TypeByExtension(path.Ext(att.LocalPath)); t != "" {
		return t
	}
	return "application/octet-stream"
}

// Clock shows a length in seconds the way players do: 0:42, 12:05, 1:02:03.
func Clock(seconds float64) string {
	s := int(math.Round(seconds))
	if s >= 3600 {
		return fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
