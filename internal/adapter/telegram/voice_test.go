package telegram_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	faketranscribe "github.com/mom-agent/mom/internal/fake/transcribe"
)

// sttKey is the key of the fake transcription server.
const sttKey = "sk-stt-test-0123"

// withTranscription starts a fake transcription server and points config.json's
// "transcription" at it, with a limit of maxMinutes.
func withTranscription(t *testing.T, w *tgWorld, maxMinutes int) *faketranscribe.Server {
	t.Helper()
	stt := faketranscribe.New(faketranscribe.WithAPIKey(sttKey))
	t.Cleanup(stt.Close)
	w.AddConfig(fmt.Sprintf(`"transcription": {"apiKey": %q, "baseUrl": %q, "maxMinutes": %d, "pricePerMinute": 0.006}`,
		sttKey, stt.URL(), maxMinutes))
	return stt
}

// TestTelegramVoiceNoteIsTranscribed: a voice note in a DM reaches the model as what was said,
// with its length, and log.jsonl keeps the transcript with the attachment.
func TestTelegramVoiceNoteIsTranscribed(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	stt := withTranscription(t, w, 10)
	stt.Enqueue(faketranscribe.Text("Please check why the nightly build failed.", 42))
	w.LLM.Enqueue(fakellm.Text("Looking at the nightly build."))
	w.run()
	voice := faketranscribe.OggOpus(42 * time.Second)
	w.tg.Say(ada, ada, "", faketg.WithVoice(voice))
	w.botSays(ada, 0, "Looking at the nightly build.")
	w.Stop()

	prompt := w.LLM.Requests()[0].LastUserText()
	if !strings.Contains(prompt, "[ada]: [voice note, 0:42] Please check why the nightly build failed.\n") ||
		!strings.Contains(prompt, "_voice.ogg\n</attachments>") {
		t.Errorf("the model should read the transcript, and still see the file:\n%s", prompt)
	}
	uploads := stt.Requests()
	if len(uploads) != 1 || uploads[0].Model != "whisper-1" || uploads[0].FileName != "voice.ogg" || string(uploads[0].Data) != string(voice) {
		t.Fatalf("uploads to the transcription server: %d", len(uploads))
	}
	line := apptest.JSONLines(t, filepath.Join(w.chatDir(ada, 0), "log.jsonl"))[0]
	atts, _ := line["attachments"].([]any)
	if len(atts) != 1 {
		t.Fatalf("log.jsonl has attachments %v", line["attachments"])
	}
	tr, _ := atts[0].(map[string]any)["transcript"].(map[string]any)
	if tr["text"] != "Please check why the nightly build failed." || tr["seconds"] != 42.0 || tr["model"] != "whisper-1" || tr["cost"] != 0.0042 {
		t.Errorf("log.jsonl keeps the transcript %v", tr)
	}
}

// TestTelegramVoiceNoteNotTranscribed: a voice note over the limit is not sent, and one the
// service fails on is noted; either way the run goes on and the model is told why.
func TestTelegramVoiceNoteNotTranscribed(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	stt := withTranscription(t, w, 1)
	stt.Enqueue(faketranscribe.Fail(503, "server_error", "The engine is currently overloaded, please try again later"))
	w.LLM.Enqueue(fakellm.Text("That one is too long."), fakellm.Text("I could not hear that one."))
	w.run()
	w.tg.Say(group, ada, "@mom_bot summary please", faketg.WithVoice(faketranscribe.OggOpus(95*time.Second)))
	w.botSays(group, 0, "That one is too long.")
	w.tg.Say(group, ada, "@mom_bot and this?", faketg.WithVoice(faketranscribe.OggOpus(5*time.Second)))
	w.botSays(group, 0, "I could not hear that one.")
	w.Stop()

	reqs := w.LLM.Requests()
	if p := reqs[0].LastUserText(); !strings.Contains(p, "summary please\n| [voice note, 1:35, not transcribed: it is 1:35 long, and mom transcribes up to 1:00 (transcription.maxMinutes in config.json)]") {
		t.Errorf("the model should hear that the note is too long:\n%s", p)
	}
	if p := reqs[1].LastUserText(); !strings.Contains(p, "and this?\n| [voice note, 0:05, not transcribed: the transcription service at http://127.0.0.1:") ||
		!strings.Contains(p, " answered 503: The engine is currently overloaded, please try again later]") {
		t.Errorf("the model should hear why the note has no transcript:\n%s", p)
	}
	if n := len(stt.Requests()); n != 1 {
		t.Errorf("%d uploads; want only the short note's", n)
	}
	if !strings.Contains(w.Log(), `msg="voice note not transcribed"`) {
		t.Errorf("mom's log does not say a note went untranscribed")
	}
}
