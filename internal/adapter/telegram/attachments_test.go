package telegram_test

import (
	"bytes"
	"encoding/base64"
	"image/jpeg"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// TestTelegramPhotoReachesTheModel: Telegram sends a photo as sizes, smallest first, with the
// words (and so the mention) in its caption; mom keeps the largest and shows it to the model.
func TestTelegramPhotoReachesTheModel(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("A colour gradient."))
	w.run()
	w.tg.Say(group, ada, "@mom_bot what is in this picture?", faketg.WithPhoto(faketg.PNG(1000, 750)))
	w.botSays(group, 0, "A colour gradient.")
	w.Stop()

	saved, _ := filepath.Glob(filepath.Join(w.chatDir(group, 0), "attachments", "*photo.jpg"))
	if len(saved) != 1 {
		t.Fatalf("attachments saved: %q; want the photo once", saved)
	}
	onDisk, _ := os.ReadFile(saved[0])
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(onDisk)); err != nil || cfg.Width != 1000 || cfg.Height != 750 {
		t.Errorf("the saved photo is %dx%d (%v); want the largest size, 1000x750", cfg.Width, cfg.Height, err)
	}
	req := w.LLM.Requests()[0]
	prompt := req.LastUserText()
	if !strings.Contains(prompt, "what is in this picture?") || strings.Contains(prompt, "@mom_bot") ||
		!strings.Contains(prompt, "attachments/"+filepath.Base(saved[0])) {
		t.Errorf("the prompt should carry the caption without the mention, and the photo's path:\n%s", prompt)
	}
	images := req.LastImages()
	if len(images) != 1 || images[0].MediaType != "image/jpeg" {
		t.Fatalf("the model got images %+v; want the photo inline as image/jpeg", images)
	}
	if sent, err := base64.StdEncoding.DecodeString(images[0].Data); err != nil || !bytes.Equal(sent, onDisk) {
		t.Errorf("the image the model got is not the saved photo (%v)", err)
	}
	line := apptest.JSONLines(t, filepath.Join(w.chatDir(group, 0), "log.jsonl"))[0]
	atts, _ := line["attachments"].([]any)
	if len(atts) != 1 || atts[0].(map[string]any)["mimeType"] != "image/jpeg" {
		t.Errorf("log.jsonl has attachments %v", line["attachments"])
	}
}

// TestTelegramVoiceAudioVideoAndDocumentsAreSaved: each kind of file Telegram sends lands in
// the channel's attachments, named (a nameless audio file by its type), and the model hears of
// them.
func TestTelegramVoiceAudioVideoAndDocumentsAreSaved(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("Four files."))
	w.run()
	files := map[string][]byte{
		"voice.ogg": []byte("OggS a voice note"),
		"audio.mp3": []byte("ID3 a song"),
		"demo.mp4":  []byte("a video"),
		"notes.pdf": []byte("%PDF-1.7 notes"),
	}
	w.tg.Say(group, bea, "", faketg.WithVoice(files["voice.ogg"]))
	w.tg.Say(group, bea, "theme song", faketg.WithAudio("", "audio/mpeg", files["audio.mp3"]))
	w.tg.Say(group, bea, "", faketg.WithVideo("demo.mp4", files["demo.mp4"]))
	w.tg.Say(group, bea, "", faketg.WithDocument("notes.pdf", files["notes.pdf"]))
	w.tg.Say(group, ada, "@mom_bot what did bea send?")
	w.botSays(group, 0, "Four files.")
	w.Stop()
	prompt := w.LLM.Requests()[0].LastUserText()
	for name, content := range files {
		saved, _ := filepath.Glob(filepath.Join(w.chatDir(group, 0), "attachments", "*_"+name))
		if len(saved) != 1 {
			t.Errorf("%s: saved as %q", name, saved)
			continue
		}
		if got, _ := os.ReadFile(saved[0]); !bytes.Equal(got, content) {
			t.Errorf("%s holds %q, want %q", name, got, content)
		}
		if !strings.Contains(prompt, "attachments/"+filepath.Base(saved[0])) {
			t.Errorf("the prompt does not name %s:\n%s", saved[0], prompt)
		}
	}
	if !strings.Contains(prompt, "theme song") {
		t.Errorf("the audio's caption is not in the prompt:\n%s", prompt)
	}
}
