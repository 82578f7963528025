//go:build !nowhatsapp

package whatsapp_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketranscribe "github.com/mom-agent/mom/internal/fake/transcribe"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// TestWhatsAppVoiceNoteIsTranscribed: a voice note (push to talk, Ogg Opus) in a DM reaches
// the model as what was said, and log.jsonl keeps the transcript with the attachment.
func TestWhatsAppVoiceNoteIsTranscribed(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin)
	stt := faketranscribe.New(faketranscribe.WithAPIKey("sk-stt-test-0123"))
	t.Cleanup(stt.Close)
	w.AddConfig(fmt.Sprintf(`"transcription": {"apiKey": "sk-stt-test-0123", "baseUrl": %q}`, stt.URL()))
	stt.Enqueue(faketranscribe.Text("Remind me to call the plumber at five.", 0))
	w.LLM.Enqueue(fakellm.Text("I'll remind you."))
	w.run()
	w.wa.Say(ada, ada, "", fakewa.WithVoice(faketranscribe.OggOpus(4*time.Second)))
	w.momSays(ada, "I'll remind you.")
	w.Stop()

	// The server reported no length (as local servers do not): the file's own is used.
	if p := w.LLM.Requests()[0].LastUserText(); !strings.Contains(p, "[voice note, 0:04] Remind me to call the plumber at five.") {
		t.Errorf("the model should read the transcript:\n%s", p)
	}
	if up := stt.Requests(); len(up) != 1 || !strings.HasSuffix(up[0].FileName, ".ogg") || up[0].ContentType != "audio/ogg" {
		t.Fatalf("uploads: %+v", up)
	}
	line := apptest.JSONLines(t, filepath.Join(w.chatDir(ada), "log.jsonl"))[0]
	atts, _ := line["attachments"].([]any)
	if len(atts) != 1 {
		t.Fatalf("log.jsonl has attachments %v", line["attachments"])
	}
	if tr, _ := atts[0].(map[string]any)["transcript"].(map[string]any); tr["text"] != "Remind me to call the plumber at five." || tr["seconds"] != 4.0 {
		t.Errorf("log.jsonl keeps the transcript %v", tr)
	}
}
