//go:build !nowhatsapp

package whatsapp_test

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"go.mau.fi/whatsmeow"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// picture is a small PNG.
func picture(t *testing.T) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 40, 30))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestWhatsAppFilesInAreSavedAndReachTheModel: every kind of file people send lands in the
// channel's attachments, named by kind where WhatsApp gives no name; a file that cannot be
// downloaded reaches the model with the reason; and a picture with the question in its
// caption is shown to the model.
func TestWhatsAppFilesInAreSavedAndReachTheModel(t *testing.T) {
	t.Parallel()
	// queue: the picture's mention may come while the first run is finishing.
	w := newWorld(t, asAdmin+`, "busy": "queue"`)
	w.LLM.Enqueue(fakellm.Text("Five files and a lost one."), fakellm.Text("A grey rectangle."))
	w.run()
	files := map[string][]byte{
		"notes.pdf":    []byte("%PDF-1.7 notes"),
		"voice.ogg":    []byte("OggS a voice note"),
		"audio.mp3":    []byte("ID3 a song"),
		"video.mp4":    []byte("a video"),
		"sticker.webp": []byte("RIFF a sticker"),
	}
	w.wa.Say(family, bea, "the notes", fakewa.WithDocument("notes.pdf", files["notes.pdf"], "application/pdf"))
	w.wa.Say(family, bea, "", fakewa.WithVoice(files["voice.ogg"]))
	w.wa.Say(family, bea, "", fakewa.WithAudio(files["audio.mp3"], "audio/mpeg"))
	w.wa.Say(family, bea, "our trip", fakewa.WithVideo(files["video.mp4"], "video/mp4"))
	w.wa.Say(family, bea, "", fakewa.WithSticker(files["sticker.webp"]))
	w.wa.Say(family, bea, "", fakewa.WithDocument("old.zip", []byte("PK gone"), "application/zip"),
		fakewa.FailingDownload(whatsmeow.ErrMediaDownloadFailedWith410))
	w.mention(family, ada, "what did bea send?")
	w.momSays(family, "Five files and a lost one.")
	prompt := w.LLM.Requests()[0].LastUserText()
	for name, content := range files {
		saved, _ := filepath.Glob(filepath.Join(w.chatDir(family), "attachments", "*_"+name))
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
	for _, want := range []string{"the notes", "our trip", `"old.zip" (not saved: WhatsApp no longer has the file`} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the prompt lacks %q:\n%s", want, prompt)
		}
	}

	pic := picture(t)
	w.wa.Say(family, ada, w.wa.Tag(mom, family)+" what is in this picture?", fakewa.Mentioning(mom), fakewa.WithImage(pic, "image/png"))
	w.momSays(family, "A grey rectangle.")
	w.Stop()
	req := w.LLM.Requests()[1]
	images := req.LastImages()
	if len(images) != 1 || images[0].MediaType != "image/png" {
		t.Fatalf("the model got images %+v; want the picture inline", images)
	}
	if sent, err := base64.StdEncoding.DecodeString(images[0].Data); err != nil || !bytes.Equal(sent, pic) {
		t.Errorf("the image the model got is not the picture (%v)", err)
	}
	if got := req.LastUserText(); !strings.Contains(got, "what is in this picture?") || strings.Contains(got, "@"+mom.User) {
		t.Errorf("the caption reached the model as %q", got)
	}
}

// TestWhatsAppFilesOut: attach sends a picture as an image and anything else as a document,
// uploaded first, with the title as the caption.
func TestWhatsAppFilesOut(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	pic := picture(t)
	w.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("write", map[string]any{"label": "Write", "path": "out/summary.txt", "content": "all good"})),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Draw",
			"command": "echo " + base64.StdEncoding.EncodeToString(pic) + " | base64 -d > out/chart.png"})),
		fakellm.Calls(
			fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/summary.txt", "title": "Summary"}),
			fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/chart.png"})),
		fakellm.Text("Attached."),
	)
	w.run()
	w.wa.Say(ada, ada, "send me a summary and a chart")
	w.momSays(ada, "Attached.")
	w.Stop()
	var doc, img *fakewa.File
	caption := ""
	for _, m := range w.wa.MomSaid(ada) {
		switch {
		case m.File == nil:
		case m.File.Kind == fakewa.Document:
			doc, caption = m.File, m.Text
		case m.File.Kind == fakewa.Image:
			img = m.File
		}
	}
	if doc == nil || doc.Name != "summary.txt" || string(doc.Data) != "all good" || !strings.HasPrefix(doc.Mimetype, "text/plain") || caption != "Summary" {
		t.Errorf("the document = %+v with caption %q; want summary.txt, captioned", doc, caption)
	}
	if img == nil || img.Mimetype != "image/png" || !bytes.Equal(img.Data, pic) {
		t.Errorf("the picture = %+v; want chart.png as an image", img)
	}
}
