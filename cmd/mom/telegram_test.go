package main

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"image/jpeg"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	"github.com/mom-agent/mom/internal/store"
)

// The Telegram tests run the real binary against the loopback Bot API fake. The shared
// behaviours (mention, DMs, stop, busy, long answers, files, [SILENT], drops) are rows of the
// conformance suite; the tests here cover what only Telegram has: replies and /commands as
// triggers, forum topics, typing, the plain-text fallback, 409 and 429.

// tgWorld is a data directory whose config has one Telegram adapter, "tg", pointed at a fake
// Telegram (newTelegramFake, in conformance_telegram_test.go).
type tgWorld struct {
	*chatWorld
	tg *faketg.Server
}

func newTelegramWorld(t testing.TB, settings string, opts ...faketg.Option) *tgWorld {
	t.Helper()
	tg := newTelegramFake(t, opts...)
	w := &tgWorld{chatWorld: newChatWorld(t, "tg", "Telegram Bot API", &telegramPlatform{s: tg}), tg: tg}
	w.configure(settings)
	return w
}

// run starts mom and waits until it polls; should the test fail, mom's log and the calls it
// made are shown.
func (w *tgWorld) run() {
	w.t.Helper()
	w.t.Cleanup(func() {
		if w.t.Failed() && w.p != nil {
			w.t.Logf("mom's log:\n%s", w.p.err)
			for _, c := range w.tg.Calls("") {
				w.t.Logf("call %s %s %v %q", c.At.Format("15:04:05.000"), c.Method, c.Params, c.Error)
			}
		}
	})
	w.chatWorld.run()
}

// botSays waits for a message of the bot in a chat's topic whose visible text holds want.
func (w *tgWorld) botSays(chatID int64, thread int, want string) faketg.Message {
	w.t.Helper()
	return awaitMessage(w.t, w.tg.WaitFor, fmt.Sprintf("the bot to say %q in %d/%d", want, chatID, thread),
		func() []faketg.Message { return w.tg.Messages(chatID, thread) },
		func(m faketg.Message) bool { return m.From == w.tg.Bot().ID && strings.Contains(m.Text, want) })
}

func TestTelegramPrivateChatShowsProgressTypingAndDetails(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
	w.llm.Enqueue(fakellm.Text("Done: **hi** to @ada & <friends>"))
	w.run()
	w.tg.Say(tgAda, tgAda, "please greet me")
	answer := w.botSays(tgAda, 0, "Done: hi to @ada & <friends>")
	if answer.Edits == 0 || !strings.Contains(answer.HTML, "<b>hi</b>") || !strings.Contains(answer.HTML, "&amp; &lt;friends&gt;") {
		t.Errorf("the answer was not edited into place as HTML: edits %d, %q", answer.Edits, answer.HTML)
	}
	details := w.botSays(tgAda, 0, "✓ bash")
	if details.ReplyTo != answer.ID || !strings.Contains(details.Text, "echo hi-from-bash") {
		t.Errorf("details %+v should reply to the answer %d and show the command", details, answer.ID)
	}
	usage := w.botSays(tgAda, 0, " in, ")
	if usage.ReplyTo != answer.ID {
		t.Errorf("the usage summary should reply to the answer")
	}
	w.stop()
	typing := 0
	for _, a := range w.tg.Actions() {
		if a.ChatID == tgAda && a.Action == "typing" {
			typing++
		}
	}
	if typing == 0 {
		t.Errorf("mom never showed typing")
	}
	lines := jsonLines(t, filepath.Join(w.channelDir("tg", strconv.FormatInt(tgAda, 10)), "log.jsonl"))
	if len(lines) != 2 || lines[0]["isDM"] != true || lines[0]["sender"].(map[string]any)["username"] != "ada" {
		t.Errorf("log.jsonl = %v", lines)
	}
}

func TestTelegramGroupTriggers(t *testing.T) {
	w := newTelegramWorld(t, `"busy": "queue"`) // each trigger runs, even one that comes while the last finishes
	w.run()
	w.tg.Say(tgGroup, tgBea, "lunch at noon?")
	w.tg.Say(tgGroup, tgCI, "@mom_bot deploy finished") // another bot never triggers
	w.llm.Enqueue(fakellm.Text("Noted, first."))
	asked := w.tg.Say(tgGroup, tgAda, "hey @mom_bot what did bea say?")
	first := w.botSays(tgGroup, 0, "Noted, first.")
	if first.ReplyTo != asked {
		t.Errorf("the answer should reply to the message that asked (%d), replies to %d", asked, first.ReplyTo)
	}
	prompt := w.waitRequests(1)[0].LastUserText()
	for _, want := range []string{"lunch at noon?", "deploy finished", "hey what did bea say?"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("the model's prompt lacks %q:\n%s", want, prompt)
		}
	}
	if strings.Contains(prompt, "@mom_bot what") {
		t.Errorf("the bot's mention was not removed:\n%s", prompt)
	}
	w.llm.Enqueue(fakellm.Text("Noted, second."))
	w.tg.Say(tgGroup, tgBea, "and what about tomorrow?", faketg.ReplyTo(first.ID))
	w.botSays(tgGroup, 0, "Noted, second.")
	w.llm.Enqueue(fakellm.Text("Noted, third."))
	w.tg.Say(tgGroup, tgAda, "/summary@mom_bot today")
	w.botSays(tgGroup, 0, "Noted, third.")
	w.stop()
	reqs := w.llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("%d model requests; want the mention, the reply and the command to run, nothing else", len(reqs))
	}
	if got := reqs[2].LastUserText(); !strings.Contains(got, "/summary today") {
		t.Errorf("the command reached the model as %q", got)
	}
}

func TestTelegramForumTopicIsAnsweredInTheTopic(t *testing.T) {
	w := newTelegramWorld(t, "")
	topic := w.tg.CreateTopic(tgForum, tgAda, "Builds")
	w.llm.Enqueue(fakellm.Calls(fakellm.Call("write", map[string]any{"label": "Write", "path": "out/report.txt", "content": "green"})))
	w.llm.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/report.txt", "title": "Report"})))
	w.llm.Enqueue(fakellm.Text("All builds green."))
	w.run()
	w.tg.Say(tgForum, tgAda, "@mom_bot status?", faketg.InTopic(topic))
	w.botSays(tgForum, topic, "All builds green.")
	w.stop()
	for _, m := range w.tg.Messages(tgForum, 0) {
		if m.From == w.tg.Bot().ID {
			t.Errorf("the answer leaked out of the topic: %q", m.Text)
		}
	}
	ups := w.tg.Uploads()
	if len(ups) != 1 || ups[0].ChatID != tgForum || ups[0].Thread != topic || ups[0].Method != "sendDocument" ||
		string(ups[0].Content) != "green" || ups[0].Caption != "Report" {
		t.Errorf("uploads = %+v; want report.txt as a document in the topic", ups)
	}
	dir, _ := store.PathComponent(fmt.Sprintf("%d:%d", tgForum, topic))
	if lines := jsonLines(t, filepath.Join(w.dir, "workspace", "channels", "tg", dir, "log.jsonl")); len(lines) != 2 {
		t.Errorf("the topic's log has %d lines; want the question and the answer", len(lines))
	}
}

func TestTelegramRefusedMarkupFallsBackToPlainText(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("**Plain** words still arrive"))
	w.run()
	w.tg.RejectMarkup(100)
	w.tg.Say(tgAda, tgAda, "hi")
	m := w.botSays(tgAda, 0, "Plain words still arrive")
	w.stop()
	if m.HTML != "" || len(m.Entities) != 0 {
		t.Errorf("the fallback should be plain text, got %q %+v", m.HTML, m.Entities)
	}
	refused := 0
	for _, c := range append(w.tg.Calls("sendMessage"), w.tg.Calls("editMessageText")...) {
		if strings.Contains(c.Error, "can't parse entities") {
			refused++
			if c.Params["parse_mode"] != "HTML" {
				t.Errorf("a refused call had parse_mode %q", c.Params["parse_mode"])
			}
		}
	}
	if refused == 0 {
		t.Errorf("no call was refused; the test proves nothing")
	}
}

func TestTelegramAnotherPollerIsReported(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("still here"))
	w.run()
	stopRival := w.tg.StartRival()
	w.p.waitForErr("another program is reading this bot's updates (Telegram answered 409 Conflict)")
	stopRival()
	w.tg.Say(tgAda, tgAda, "are you there?")
	w.botSays(tgAda, 0, "still here")
	w.stop()
	if w.tg.Conflicts() == 0 {
		t.Errorf("no 409 happened; the test proves nothing")
	}
}

func TestTelegramRateLimitIsHonoured(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("slow and steady"))
	w.run()
	w.tg.RateLimit("sendMessage", 2, 1)
	w.tg.Say(tgAda, tgAda, "hi")
	w.botSays(tgAda, 0, "slow and steady")
	w.stop()
	// The fake records a call that comes before retry_after has passed as a violation, which
	// the world checks at the test's end.
	calls := w.tg.Calls("sendMessage")
	if len(calls) < 3 || !strings.HasPrefix(calls[0].Error, "Too Many Requests") || calls[2].Error != "" {
		t.Fatalf("sendMessage calls = %+v; want two refused and then one sent", calls)
	}
}

// TestTelegramUpdatesSentAgainAfterACrashAreNotLoggedTwice: mom confirms a batch of
// updates only with its next getUpdates call, so when it dies before that call gets through,
// Telegram sends the batch again to the next mom, which must know it from the log.
func TestTelegramUpdatesSentAgainAfterACrashAreNotLoggedTwice(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("hello to you"))
	w.run()
	w.tg.RateLimit("getUpdates", 1, 1) // the call that would confirm the message is refused
	w.tg.Say(tgAda, tgAda, "hello once")
	w.botSays(tgAda, 0, "hello to you")
	var refused time.Time
	eventually(t, "the confirming getUpdates to be refused", func() bool {
		for _, c := range w.tg.Calls("getUpdates") {
			if strings.HasPrefix(c.Error, "Too Many Requests") {
				refused = c.At
				return true
			}
		}
		return false
	})
	if err := w.p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	w.p.wait()
	// The next mom may poll only after retry_after, or the fake counts a violation.
	eventually(t, "retry_after to pass", func() bool { return time.Since(refused) > 1100*time.Millisecond })
	w.run()
	eventually(t, "the message to be sent again and confirmed", func() bool {
		again := false
		for _, n := range w.tg.Deliveries() {
			again = again || n >= 2
		}
		return again && w.tg.Pending() == 0
	})
	w.stop()
	var said []string
	for _, l := range jsonLines(t, filepath.Join(w.channelDir("tg", strconv.FormatInt(tgAda, 10)), "log.jsonl")) {
		said = append(said, l["text"].(string))
	}
	if strings.Count(strings.Join(said, "\n"), "hello once") != 1 {
		t.Errorf("log.jsonl holds %q; want the message once", said)
	}
}

func TestTelegramRefusedTokenIsNamed(t *testing.T) {
	w := newTelegramWorld(t, "")
	cfg, _ := os.ReadFile(filepath.Join(w.dir, "config.json"))
	id, _, _ := strings.Cut(w.tg.Token(), ":")
	w.writeConfig(strings.Replace(string(cfg), w.tg.Token(), id+":wrong-secret", 1))
	w.wrongToken = true
	res := w.mom("", w.dir)
	if res.code != 1 || !strings.Contains(res.stderr, "Telegram did not accept the bot token (getMe)") ||
		strings.Contains(res.stderr, "wrong-secret") {
		t.Errorf("exit %d; stderr:\n%s\nwant the refused token named, and not printed", res.code, res.stderr)
	}
}

// tgChannelDir is the directory of a Telegram chat's channel.
func (w *tgWorld) tgChannelDir(chatID int64) string {
	w.t.Helper()
	dir, err := store.PathComponent(strconv.FormatInt(chatID, 10))
	if err != nil {
		w.t.Fatal(err)
	}
	return w.channelDir("tg", dir)
}

// TestTelegramPhotoReachesTheModel: Telegram sends a photo as sizes, smallest first, with the
// words (and so the mention) in its caption; mom keeps the largest and shows it to the model.
func TestTelegramPhotoReachesTheModel(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("A colour gradient."))
	w.run()
	w.tg.Say(tgGroup, tgAda, "@mom_bot what is in this picture?", faketg.WithPhoto(faketg.PNG(1000, 750)))
	w.botSays(tgGroup, 0, "A colour gradient.")
	w.stop()

	saved, _ := filepath.Glob(filepath.Join(w.tgChannelDir(tgGroup), "attachments", "*photo.jpg"))
	if len(saved) != 1 {
		t.Fatalf("attachments saved: %q; want the photo once", saved)
	}
	onDisk, _ := os.ReadFile(saved[0])
	if cfg, err := jpeg.DecodeConfig(bytes.NewReader(onDisk)); err != nil || cfg.Width != 1000 || cfg.Height != 750 {
		t.Errorf("the saved photo is %dx%d (%v); want the largest size, 1000x750", cfg.Width, cfg.Height, err)
	}
	req := w.llm.Requests()[0]
	prompt := req.LastUserText()
	if !strings.Contains(prompt, "what is in this picture?") || strings.Contains(prompt, "@mom_bot") ||
		!strings.Contains(prompt, "attachments/"+filepath.Base(saved[0])) {
		t.Errorf("the prompt should carry the caption without the mention, and the photo's path:\n%s", prompt)
	}
	var images []fakellm.Block
	for _, b := range req.Messages[len(req.Messages)-1].Content {
		if b.Type == "image" {
			images = append(images, b)
		}
	}
	if len(images) != 1 || images[0].MediaType != "image/jpeg" {
		t.Fatalf("the model got images %+v; want the photo inline as image/jpeg", images)
	}
	if sent, err := base64.StdEncoding.DecodeString(images[0].Data); err != nil || !bytes.Equal(sent, onDisk) {
		t.Errorf("the image the model got is not the saved photo (%v)", err)
	}
	line := jsonLines(t, filepath.Join(w.tgChannelDir(tgGroup), "log.jsonl"))[0]
	atts, _ := line["attachments"].([]any)
	if len(atts) != 1 || atts[0].(map[string]any)["mimeType"] != "image/jpeg" {
		t.Errorf("log.jsonl has attachments %v", line["attachments"])
	}
}

// TestTelegramVoiceAudioVideoAndDocumentsAreSaved: each kind of file Telegram sends lands in
// the channel's attachments, named (a nameless audio file by its type), and the model hears of
// them.
func TestTelegramVoiceAudioVideoAndDocumentsAreSaved(t *testing.T) {
	w := newTelegramWorld(t, "")
	w.llm.Enqueue(fakellm.Text("Four files."))
	w.run()
	files := map[string][]byte{
		"voice.ogg": []byte("OggS a voice note"),
		"audio.mp3": []byte("ID3 a song"),
		"demo.mp4":  []byte("a video"),
		"notes.pdf": []byte("%PDF-1.7 notes"),
	}
	w.tg.Say(tgGroup, tgBea, "", faketg.WithVoice(files["voice.ogg"]))
	w.tg.Say(tgGroup, tgBea, "theme song", faketg.WithAudio("", "audio/mpeg", files["audio.mp3"]))
	w.tg.Say(tgGroup, tgBea, "", faketg.WithVideo("demo.mp4", files["demo.mp4"]))
	w.tg.Say(tgGroup, tgBea, "", faketg.WithDocument("notes.pdf", files["notes.pdf"]))
	w.tg.Say(tgGroup, tgAda, "@mom_bot what did bea send?")
	w.botSays(tgGroup, 0, "Four files.")
	w.stop()
	prompt := w.llm.Requests()[0].LastUserText()
	for name, content := range files {
		saved, _ := filepath.Glob(filepath.Join(w.tgChannelDir(tgGroup), "attachments", "*_"+name))
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

// TestTelegramPicturesGoAsPhotosOrFallBackToDocuments: a picture goes with sendPhoto, so it
// shows inline; one Telegram refuses as a photo (too wide, or over 10 MB) goes as a file, and
// so does anything that is not a picture.
func TestTelegramPicturesGoAsPhotosOrFallBackToDocuments(t *testing.T) {
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
	w.llm.Enqueue(fakellm.Calls(calls...))
	w.llm.Enqueue(fakellm.Text("Sent them all."))
	w.run()
	w.tg.Say(tgAda, tgAda, "send me the files")
	w.botSays(tgAda, 0, "Sent them all.")
	w.stop()

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
	for _, r := range w.llm.Requests()[1].ToolResults() {
		if r.IsError {
			t.Errorf("the model was told an attach failed: %s", r.Text)
		}
	}
}
