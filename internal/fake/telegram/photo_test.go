package faketelegram

import (
	"bytes"
	"context"
	"encoding/json"
	"image/jpeg"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// nextMessage takes the next update's message, decoded by the real library's types.
func nextMessage(t *testing.T, s *Server) models.Message {
	t.Helper()
	_, ans := call(t, s, "getUpdates", nil)
	ups := ans["result"].([]any)
	if len(ups) == 0 {
		t.Fatal("no update")
	}
	last := ups[len(ups)-1].(map[string]any)
	call(t, s, "getUpdates", map[string]any{"offset": last["update_id"].(float64) + 1})
	raw, _ := json.Marshal(last["message"])
	var m models.Message
	if err := json.Unmarshal(raw, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// download fetches a file as a bot does: getFile, then the file's address.
func download(t *testing.T, b *bot.Bot, id string) []byte {
	t.Helper()
	f, err := b.GetFile(context.Background(), &bot.GetFileParams{FileID: id})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := http.Get(b.FileDownloadLink(f))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	return data
}

func TestPhotoComesInSizesLargestLast(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	s.Say(group, ada, "@mom_bot what is this?", WithPhoto(PNG(1000, 750)))
	m := nextMessage(t, s)
	if m.Caption != "@mom_bot what is this?" || len(m.CaptionEntities) != 1 || m.CaptionEntities[0].Type != "mention" || m.Text != "" {
		t.Errorf("caption %q, entities %+v, text %q", m.Caption, m.CaptionEntities, m.Text)
	}
	want := [][2]int{{90, 67}, {320, 240}, {800, 600}, {1000, 750}}
	if len(m.Photo) != len(want) {
		t.Fatalf("photo sizes = %+v, want %v", m.Photo, want)
	}
	for i, p := range m.Photo {
		data := download(t, b, p.FileID)
		cfg, err := jpeg.DecodeConfig(bytes.NewReader(data))
		if err != nil || p.Width != want[i][0] || p.Height != want[i][1] || cfg.Width != p.Width || cfg.Height != p.Height ||
			p.FileSize != len(data) {
			t.Errorf("size %d: %+v holds a %dx%d JPEG of %d bytes (%v); want %v", i, p, cfg.Width, cfg.Height, len(data), err, want[i])
		}
	}
	noViolations(t, s)
}

func TestMediaAsTheBotAPISendsThem(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	s.Say(ada, ada, "", WithAudio("", "audio/mpeg", []byte("ID3 song")))
	if m := nextMessage(t, s); m.Audio == nil || m.Audio.FileName != "" || m.Audio.MimeType != "audio/mpeg" || m.Audio.Duration == 0 ||
		m.Audio.FileSize != 8 || string(download(t, b, m.Audio.FileID)) != "ID3 song" {
		t.Errorf("audio = %+v", m.Audio)
	}
	s.Say(ada, ada, "the demo", WithVideo("demo.mp4", []byte("video bytes")))
	if m := nextMessage(t, s); m.Video == nil || m.Video.FileName != "demo.mp4" || m.Video.Width == 0 || m.Video.MimeType != "video/mp4" ||
		m.Caption != "the demo" || string(download(t, b, m.Video.FileID)) != "video bytes" {
		t.Errorf("video = %+v, caption %q", m.Video, m.Caption)
	}
	s.Say(ada, ada, "", WithVoice([]byte("OggS voice")))
	m := nextMessage(t, s)
	if m.Voice == nil || m.Voice.MimeType != "audio/ogg" || m.Voice.Duration == 0 || string(download(t, b, m.Voice.FileID)) != "OggS voice" {
		t.Errorf("voice = %+v", m.Voice)
	}
	f, _ := b.GetFile(context.Background(), &bot.GetFileParams{FileID: m.Voice.FileID})
	if !strings.HasPrefix(f.FilePath, "voice/") || !strings.HasSuffix(f.FilePath, ".oga") {
		t.Errorf("a voice note's file_path is %q, want voice/….oga as Telegram has it", f.FilePath)
	}
	noViolations(t, s)
}

func TestSendPhotoEnforcesTheDocumentedLimits(t *testing.T) {
	s := newServer(t)
	b := client(t, s)
	send := func(name string, content []byte) (*models.Message, error) {
		return b.SendPhoto(context.Background(), &bot.SendPhotoParams{ChatID: group,
			Photo: &models.InputFileUpload{Filename: name, Data: bytes.NewReader(content)}})
	}
	m, err := send("chart.png", PNG(400, 300))
	if err != nil || len(m.Photo) != 3 || m.Photo[2].Width != 400 || m.Photo[2].Height != 300 {
		t.Fatalf("a fine photo: %+v, %v", m, err)
	}
	big := PNG(2000, 1900)
	if len(big) <= maxPhoto {
		t.Fatalf("the big picture is only %d bytes", len(big))
	}
	for _, tt := range []struct {
		name    string
		content []byte
		want    string
	}{
		{"wide.png", PNG(2100, 100), "PHOTO_INVALID_DIMENSIONS"}, // ratio 21
		{"tall.png", PNG(100, 9950), "PHOTO_INVALID_DIMENSIONS"}, // 10,050 in total
		{"big.png", big, "PHOTO_SAVE_FILE_INVALID"},
		{"notes.png", []byte("not an image"), "IMAGE_PROCESS_FAILED"},
	} {
		if _, err := send(tt.name, tt.content); !strings.Contains(err.Error(), "Bad Request: "+tt.want) {
			t.Errorf("%s: %v, want %s", tt.name, err, tt.want)
		}
	}
	if _, err := send("edge.png", PNG(200, 10)); err != nil {
		t.Errorf("a ratio of exactly 20 is allowed: %v", err)
	}
	if _, err := b.SendDocument(context.Background(), &bot.SendDocumentParams{ChatID: group,
		Document: &models.InputFileUpload{Filename: "wide.png", Data: bytes.NewReader(PNG(2100, 100))}}); err != nil {
		t.Errorf("a picture refused as a photo still goes as a document: %v", err)
	}
	ups := s.Uploads()
	if len(ups) != 3 || ups[0].Method != "sendPhoto" || ups[1].Method != "sendPhoto" || ups[2].Method != "sendDocument" {
		t.Errorf("uploads = %+v", ups)
	}
	noViolations(t, s)
}

func TestWebPSize(t *testing.T) {
	header := func(chunk string, body ...byte) []byte {
		b := append([]byte("RIFF\x00\x00\x00\x00WEBP"+chunk+"\x00\x00\x00\x00"), body...)
		return append(b, make([]byte, 16)...)
	}
	for _, tt := range []struct {
		name string
		data []byte
		w, h int
	}{
		// Lossless: 14 bits of width-1, then 14 of height-1, after the 0x2f signature.
		{"VP8L", header("VP8L", 0x2f, 0x3f, 0xc0, 0x0d, 0x00), 64, 56},
		// Extended: 24-bit canvas width-1 and height-1 after 4 bytes of flags.
		{"VP8X", header("VP8X", 0, 0, 0, 0, 0xff, 0x0f, 0x00, 0x7f, 0x02, 0x00), 4096, 640},
		// Lossy: a 3-byte frame tag, the start code, then 14-bit width and height.
		{"VP8", header("VP8 ", 0, 0, 0, 0x9d, 0x01, 0x2a, 0x20, 0x03, 0x58, 0x02), 800, 600},
	} {
		w, h, ok := imageSize(tt.data)
		if !ok || w != tt.w || h != tt.h {
			t.Errorf("%s: %dx%d %v, want %dx%d", tt.name, w, h, ok, tt.w, tt.h)
		}
	}
	if _, _, ok := imageSize([]byte("RIFF\x00\x00\x00\x00WAVEfmt ")); ok {
		t.Errorf("a WAV file passed for an image")
	}
	if _, _, ok := imageSize(PNG(3, 2)); !ok {
		t.Errorf("a PNG has no size")
	}
}
