package telegram_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// TestTelegramPicturesGoAsPhotosOrFallBackToDocuments: a picture goes with sendPhoto, so it
// shows inline; one Telegram refuses as a photo (too wide, or over 10 MB) goes as a file, and
// so does anything that is not a picture.
func TestTelegramPicturesGoAsPhotosOrFallBackToDocuments(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	dir := t.TempDir()
	files := map[string][]byte{
		"chart.png": faketg.PNG(400, 300),
		"wide.png":  faketg.PNG(2100, 100), // a ratio of 21: PHOTO_INVALID_DIMENSIONS
		"big.png":   faketg.PNG(2000, 1900),
		"notes.txt": []byte("plain notes"),
	}
	if len(files["big.png"]) <= 10<<20 {
		t.Fatalf("big.png is only %d bytes; it must be over sendPhoto's 10 MB", len(files["big.png"]))
	}
	var calls []fakellm.ToolCall
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			t.Fatal(err)
		}
		calls = append(calls, fakellm.Call("attach", map[string]any{"label": "Send " + name, "path": filepath.Join(dir, name)}))
	}
	w.LLM.Enqueue(fakellm.Calls(calls...))
	w.LLM.Enqueue(fakellm.Text("Sent them all."))
	w.run()
	w.tg.Say(ada, ada, "send me the files")
	w.botSays(ada, 0, "Sent them all.")
	w.Stop()

	want := map[string]string{"chart.png": "sendPhoto", "wide.png": "sendDocument", "big.png": "sendDocument", "notes.txt": "sendDocument"}
	ups := w.tg.Uploads()
	if len(ups) != len(want) {
		t.Errorf("%d uploads; want %d", len(ups), len(want))
	}
	for _, u := range ups {
		if u.Method != want[u.Filename] || !bytes.Equal(u.Content, files[u.Filename]) {
			t.Errorf("%s went with %s (%d bytes); want %s with its content", u.Filename, u.Method, len(u.Content), want[u.Filename])
		}
	}
	tried := map[string]string{}
	for _, c := range w.tg.Calls("sendPhoto") {
		tried[c.Params["photo"]] = c.Error
	}
	if len(tried) != 2 || tried["chart.png"] != "" || tried["wide.png"] != "Bad Request: PHOTO_INVALID_DIMENSIONS" {
		t.Errorf("sendPhoto calls: %q; want chart.png sent and wide.png refused, and no try for the rest", tried)
	}
	for _, r := range w.LLM.Requests()[1].ToolResults() {
		if r.IsError {
			t.Errorf("the model was told an attach failed: %s", r.Text)
		}
	}
}
