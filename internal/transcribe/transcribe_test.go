package transcribe

import (
	"bytes"
	"context"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	faketranscribe "github.com/mom-agent/mom/internal/fake/transcribe"
	"github.com/mom-agent/mom/internal/store"
)

const apiKey = "sk-transcribe-test"

// channel is a real channel directory to save attachments in.
func channel(t *testing.T) *store.ChannelDir {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	ch, err := st.ChannelDir("tg", "123")
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// save keeps data as an attachment named name of type mimeType, as an adapter does.
func save(t *testing.T, ch *store.ChannelDir, name, mimeType string, data []byte) chat.Attachment {
	t.Helper()
	att, err := ch.SaveAttachment(name, time.Now(), bytes.NewReader(data), 100<<20)
	if err != nil {
		t.Fatal(err)
	}
	att.MimeType = mimeType
	return att
}

// newTranscriber talks to a fake server that wants apiKey.
func newTranscriber(t *testing.T, o Options) (*Transcriber, *faketranscribe.Server) {
	t.Helper()
	srv := faketranscribe.New(faketranscribe.WithAPIKey(apiKey))
	t.Cleanup(srv.Close)
	if o.BaseURL == "" {
		o.BaseURL = srv.URL()
	}
	if o.APIKey == "" {
		o.APIKey = apiKey
	}
	o.Model = "whisper-1"
	if o.MaxDuration == 0 {
		o.MaxDuration = 10 * time.Minute
	}
	return New(o), srv
}

// TestVoiceNoteTranscribed: a voice note is uploaded as the API wants it, and its
// transcript, length and cost are kept on the attachment.
func TestVoiceNoteTranscribed(t *testing.T) {
	t.Parallel()
	var observed []string
	tr, srv := newTranscriber(t, Options{PricePerMinute: 0.006, Observe: func(result string, seconds, cost float64) {
		observed = append(observed, result)
	}})
	srv.Enqueue(faketranscribe.Text(" Can you check the build? ", 42))
	ch := channel(t)
	voice := faketranscribe.OggOpus(42 * time.Second)
	m := chat.Message{ChannelID: "123", Attachments: []chat.Attachment{
		save(t, ch, "voice.ogg", "audio/ogg", voice),
		save(t, ch, "notes.pdf", "application/pdf", []byte("%PDF-1.7")),
	}}
	tr.Transcribe(context.Background(), ch, &m)

	got := m.Attachments[0].Transcript
	if got == nil || got.Text != "Can you check the build?" || got.Seconds != 42 || got.Model != "whisper-1" || got.Error != "" {
		t.Fatalf("transcript = %+v", got)
	}
	if want := 42.0 / 60 * 0.006; got.Cost < want-1e-9 || got.Cost > want+1e-9 {
		t.Errorf("cost = %v, want %v", got.Cost, want)
	}
	if m.Attachments[1].Transcript != nil {
		t.Errorf("a PDF got a transcript: %+v", m.Attachments[1].Transcript)
	}
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("%d uploads, want 1", len(reqs))
	}
	r := reqs[0]
	if r.Model != "whisper-1" || r.ResponseFormat != "json" || r.FileName != "voice.ogg" || r.ContentType != "audio/ogg" || !bytes.Equal(r.Data, voice) {
		t.Errorf("upload: model %q, format %q, file %q (%s), %d bytes", r.Model, r.ResponseFormat, r.FileName, r.ContentType, len(r.Data))
	}
	if len(observed) != 1 || observed[0] != "ok" {
		t.Errorf("observed %v", observed)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Errorf("the upload broke the API's rules: %v", v)
	}
}

// TestTooLongIsNotSent: audio over the limit is never uploaded; the note says how long it is
// and what the limit is.
func TestTooLongIsNotSent(t *testing.T) {
	t.Parallel()
	tr, srv := newTranscriber(t, Options{MaxDuration: 10 * time.Minute})
	ch := channel(t)
	m := chat.Message{Attachments: []chat.Attachment{save(t, ch, "voice.ogg", "audio/ogg", faketranscribe.OggOpus(12*time.Minute+5*time.Second))}}
	tr.Transcribe(context.Background(), ch, &m)
	got := m.Attachments[0].Transcript
	if got == nil || got.Text != "" || got.Seconds != 725 ||
		got.Error != "it is 12:05 long, and mom transcribes up to 10:00 (transcription.maxMinutes in config.json)" {
		t.Errorf("transcript = %+v", got)
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("%d uploads of a file over the limit", n)
	}
}

// TestFailuresAreNoted: what goes wrong with the service is noted on the attachment in words
// that say what to fix, and nothing is charged.
func TestFailuresAreNoted(t *testing.T) {
	t.Parallel()
	voice := faketranscribe.OggOpus(3 * time.Second)
	for _, c := range []struct {
		name  string
		setup func(*Options, *faketranscribe.Server)
		want  string
	}{
		{"server error", func(_ *Options, s *faketranscribe.Server) {
			s.Enqueue(faketranscribe.Fail(500, "server_error", "The server had an error while processing your request."))
		}, "answered 500: The server had an error while processing your request."},
		{"wrong key", func(o *Options, _ *faketranscribe.Server) { o.APIKey = "sk-wrong-key-1234" },
			"answered 401: Incorrect API key provided: sk-*****1234. You can find your API key at https://platform.openai.com/account/api-keys. (check transcription.apiKey in config.json)"},
		{"wrong path", func(o *Options, s *faketranscribe.Server) { o.BaseURL = strings.TrimSuffix(s.URL(), "/v1") },
			"answered 404: Invalid URL (POST /audio/transcriptions) (check transcription.baseUrl in config.json"},
		{"unreachable", func(o *Options, _ *faketranscribe.Server) { o.BaseURL = "http://127.0.0.1:1/v1" },
			"the transcription service at http://127.0.0.1:1 could not be reached: "},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			srv := faketranscribe.New(faketranscribe.WithAPIKey(apiKey))
			t.Cleanup(srv.Close)
			o := Options{BaseURL: srv.URL(), APIKey: apiKey, Model: "whisper-1", MaxDuration: time.Minute, PricePerMinute: 0.006}
			c.setup(&o, srv)
			ch := channel(t)
			m := chat.Message{Attachments: []chat.Attachment{save(t, ch, "voice.ogg", "audio/ogg", voice)}}
			New(o).Transcribe(context.Background(), ch, &m)
			got := m.Attachments[0].Transcript
			if got == nil || got.Text != "" || got.Cost != 0 || !strings.Contains(got.Error, c.want) {
				t.Errorf("transcript = %+v\nwant an error with %q", got, c.want)
			}
		})
	}
}

// TestUnsupportedFormatIsTheServersToSay: audio in a format the API does not list is still
// offered (local servers decode anything ffmpeg does), and the API's refusal is noted.
func TestUnsupportedFormatIsTheServersToSay(t *testing.T) {
	t.Parallel()
	tr, srv := newTranscriber(t, Options{})
	ch := channel(t)
	m := chat.Message{Attachments: []chat.Attachment{save(t, ch, "memo.amr", "audio/amr", []byte("#!AMR\n..."))}}
	tr.Transcribe(context.Background(), ch, &m)
	if got := m.Attachments[0].Transcript; got == nil || !strings.Contains(got.Error, "answered 400: Invalid file format. Supported formats: ['flac', 'm4a'") {
		t.Errorf("transcript = %+v", got)
	}
	if len(srv.Requests()) != 0 {
		t.Errorf("the fake took a file it should refuse")
	}
}

// TestWhichAttachmentsAreAudio: voice notes, audio, and videos in containers the API takes.
func TestWhichAttachmentsAreAudio(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		path, mime, want string
	}{
		{"attachments/1_voice.ogg", "audio/ogg", "voice note"},
		{"attachments/1_voice.ogg", "audio/ogg; codecs=opus", "voice note"},
		{"attachments/1_song.mp3", "audio/mpeg", "audio"},
		{"attachments/1_memo.m4a", "", "audio"},
		{"attachments/1_clip.mp4", "video/mp4", "video"},
		{"attachments/1_clip.webm", "", "video"},
		{"attachments/1_clip.mov", "video/quicktime", ""},
		{"attachments/1_photo.jpg", "image/jpeg", ""},
		{"attachments/1_notes.pdf", "application/pdf", ""},
	} {
		if got := Kind(chat.Attachment{LocalPath: c.path, MimeType: c.mime}); got != c.want {
			t.Errorf("Kind(%s, %s) = %q, want %q", c.path, c.mime, got, c.want)
		}
	}
}

// TestDuration: the length is read from Ogg, WAV and MPEG-4 headers; other files and damaged
// ones have none.
func TestDuration(t *testing.T) {
	t.Parallel()
	wav := func(seconds int) []byte {
		const rate = 8000
		var b bytes.Buffer
		b.WriteString("RIFF")
		_ = binary.Write(&b, binary.LittleEndian, uint32(36+rate*seconds))
		b.WriteString("WAVEfmt ")
		// PCM, mono, 8 kHz, 8 bits: a byte rate of 8000.
		for _, v := range []any{uint32(16), uint16(1), uint16(1), uint32(rate), uint32(rate), uint16(1), uint16(8)} {
			_ = binary.Write(&b, binary.LittleEndian, v)
		}
		b.WriteString("data")
		_ = binary.Write(&b, binary.LittleEndian, uint32(rate*seconds))
		b.Write(make([]byte, rate*seconds))
		return b.Bytes()
	}
	box := func(kind string, content ...[]byte) []byte {
		body := bytes.Join(content, nil)
		return append(binary.BigEndian.AppendUint32(nil, uint32(8+len(body))), append([]byte(kind), body...)...)
	}
	mvhd := make([]byte, 100)
	binary.BigEndian.PutUint32(mvhd[12:], 1000)  // timescale
	binary.BigEndian.PutUint32(mvhd[16:], 95500) // duration: 95.5 s
	// moov after mdat, as many recorders write it.
	m4a := bytes.Join([][]byte{box("ftyp", []byte("M4A \x00\x00\x00\x00")), box("mdat", make([]byte, 5000)), box("moov", box("mvhd", mvhd))}, nil)

	for _, c := range []struct {
		name string
		data []byte
		want time.Duration
		ok   bool
	}{
		{"ogg opus", faketranscribe.OggOpus(42 * time.Second), 42 * time.Second, true},
		{"ogg opus, a long one", faketranscribe.OggOpus(95 * time.Minute), 95 * time.Minute, true},
		{"wav", wav(3), 3 * time.Second, true},
		{"m4a", m4a, 95500 * time.Millisecond, true},
		{"mp3", []byte("ID3\x04\x00\x00\x00\x00\x00\x00 frames"), 0, false},
		{"ogg cut short", faketranscribe.OggOpus(time.Second)[:40], 0, false},
		{"mp4 with a box that lies about its size", append(box("ftyp", []byte("isom")), 0xff, 0xff, 0xff, 0xff, 'm', 'o', 'o', 'v'), 0, false},
		{"empty", nil, 0, false},
	} {
		got, ok := duration(bytes.NewReader(c.data), int64(len(c.data)))
		if ok != c.ok || got.Round(time.Millisecond) != c.want {
			t.Errorf("%s: %v, %v; want %v, %v", c.name, got, ok, c.want, c.ok)
		}
	}
}

// TestPlantedLinkIsNotSent: an attachment a command replaced with a link to a secret is not
// followed: nothing is uploaded.
func TestPlantedLinkIsNotSent(t *testing.T) {
	t.Parallel()
	tr, srv := newTranscriber(t, Options{})
	ch := channel(t)
	att := save(t, ch, "voice.ogg", "audio/ogg", faketranscribe.OggOpus(time.Second))
	secret := filepath.Join(t.TempDir(), "config.json")
	if err := os.WriteFile(secret, append([]byte("OggS"), `{"apiKey": "sk-secret"}`...), 0o600); err != nil {
		t.Fatal(err)
	}
	full := filepath.Join(ch.Dir(), filepath.FromSlash(att.LocalPath))
	if err := os.Remove(full); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secret, full); err != nil {
		t.Fatal(err)
	}
	m := chat.Message{Attachments: []chat.Attachment{att}}
	tr.Transcribe(context.Background(), ch, &m)
	if len(srv.Requests()) != 0 {
		t.Fatalf("the file a link pointed at was uploaded")
	}
	if got := m.Attachments[0].Transcript; got == nil || !strings.Contains(got.Error, "could not be opened") {
		t.Errorf("transcript = %+v", got)
	}
}

// TestClock: lengths are shown as players show them.
func TestClock(t *testing.T) {
	t.Parallel()
	for s, want := range map[float64]string{0: "0:00", 4.4: "0:04", 42: "0:42", 600: "10:00", 3723: "1:02:03"} {
		if got := Clock(s); got != want {
			t.Errorf("Clock(%v) = %q, want %q", s, got, want)
		}
	}
}
