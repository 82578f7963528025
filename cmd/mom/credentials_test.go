package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
)

// A platform's credentials go only to the platform's own servers: a second loopback server,
// the stranger, records whatever reaches it, and must never see a token.

// newStranger starts a server that is no platform's, closed at the test's end.
func newStranger(t *testing.T) *fakeserver.Stranger {
	s := fakeserver.NewStranger()
	t.Cleanup(s.Close)
	return s
}

// assertNoSecret fails the test if any request the stranger received holds secret.
func assertNoSecret(t *testing.T, s *fakeserver.Stranger, secret string) {
	t.Helper()
	for _, v := range s.Visits() {
		if strings.Contains(v.Dump(), secret) {
			t.Errorf("the token reached the stranger's server:\n%s", v.Dump())
		}
	}
}

// TestSlackFileOnAnotherHostIsNotFetched: a file event whose url_private_download names
// another server (here another port of the same loopback address) is not fetched: nothing
// reaches that server, and the model is told why the file is missing.
func TestSlackFileOnAnotherHostIsNotFetched(t *testing.T) {
	stranger := newStranger(t)
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("I could not open it."))
	sw.run()
	sw.slack.Say(general, beaID, "<@"+slackBot+"> summarise this", fakeslack.WithFile(fakeslack.File{
		Name: "report.txt", Content: []byte("numbers"),
		ForgedURL: stranger.URL + "/files-pri/T0-F0/download/report.txt"}))
	sw.botSays(general, "", "I could not open it.")
	sw.stop()

	if v := stranger.Visits(); len(v) != 0 {
		t.Errorf("mom fetched a file from a server that is not Slack's: %v", v)
	}
	host := strings.TrimPrefix(stranger.URL, "http://")
	prompt := sw.llm.Requests()[0].LastUserText()
	if want := `"report.txt" (not saved: the file's address points to "` + host + `", not to Slack`; !strings.Contains(prompt, want) {
		t.Errorf("the model is not told why the file is missing; want %q in:\n%s", want, prompt)
	}
	if log := sw.p.err.String(); !strings.Contains(log, "could not download a file from Slack") || !strings.Contains(log, host) {
		t.Errorf("mom's log does not name the refused server:\n%s", log)
	}
}

// TestSlackFileRedirectedElsewhereLosesTheToken: Slack's file host answers the download with
// a redirect to another server (another port of the same host, which net/http alone would
// trust with the Authorization header). The file is fetched from there, without the token.
func TestSlackFileRedirectedElsewhereLosesTheToken(t *testing.T) {
	stranger := newStranger(t)
	sw := newSlackWorld(t, "")
	sw.llm.Enqueue(fakellm.Text("Read it."))
	sw.run()
	sw.slack.Say(general, beaID, "<@"+slackBot+"> summarise this", fakeslack.WithFile(fakeslack.File{
		Name: "report.txt", Content: []byte("numbers"), MovedTo: stranger.URL + "/cdn/report.txt"}))
	sw.botSays(general, "", "Read it.")
	sw.stop()

	if v := stranger.Visits(); len(v) != 1 {
		t.Fatalf("the stranger's server got %d requests, want the redirected download", len(v))
	}
	assertNoSecret(t, stranger, sw.slack.BotToken())
	saved, _ := filepath.Glob(filepath.Join(sw.channelDir("acme", general), "attachments", "*_report.txt"))
	if len(saved) != 1 {
		t.Fatalf("attachments saved: %q, want report.txt", saved)
	}
	if got, _ := os.ReadFile(saved[0]); string(got) != fakeserver.StrangerContent {
		t.Errorf("report.txt holds %q, want what the redirect led to", got)
	}
}

// TestTelegramFileRedirectedElsewhereLosesTheToken: Telegram's download addresses hold the bot
// token in their path; when the file server redirects, the next server must not learn the
// address (net/http would send it as the Referer).
func TestTelegramFileRedirectedElsewhereLosesTheToken(t *testing.T) {
	stranger := newStranger(t)
	w := newTelegramWorld(t, "", faketg.WithFilesMovedTo(stranger.URL+"/cdn/notes.pdf"))
	w.llm.Enqueue(fakellm.Text("Read it."))
	w.run()
	w.tg.Say(tgGroup, tgAda, "@mom_bot summarise this", faketg.WithDocument("notes.pdf", []byte("%PDF-1.7 notes")))
	w.botSays(tgGroup, 0, "Read it.")
	w.stop()

	if v := stranger.Visits(); len(v) != 1 {
		t.Fatalf("the stranger's server got %d requests, want the redirected download", len(v))
	}
	_, secret, _ := strings.Cut(w.tg.Token(), ":") // the token's secret half
	assertNoSecret(t, stranger, secret)
}
