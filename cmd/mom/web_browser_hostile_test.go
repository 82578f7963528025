package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/mom-agent/mom/internal/chat"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// hostileMessages are texts that broke the chat's markdown renderer, or could: the old
// renderer's placeholders spelled out (NUL, digits, NUL: the page stopped drawing the
// channel), markup that reached into a link's address, HTML and script, and a line of "["
// that took the page minutes per message. Each must show, and so must everything after it;
// none may run.
var hostileMessages = []struct{ id, text string }{
	{"nul", "a\u00000\u0000b"},
	{"nul-code", "`x` and \u00000\u0000 and \u00001\u0000"},
	{"link", "[l](https://a.example/**b**) **c**"},
	{"html", "<0> <img src=x onerror=alert(1)> &lt;1&gt;"},
	{"script", "<script>window.pwned = 1</script>\n\n<img src=x onerror=\"window.pwned = 2\">\n\n[click](javascript:window.pwned=3) <svg onload=\"window.pwned = 4\">"},
	{"brackets", strings.Repeat("[", 1<<20)},
	{"links", strings.Repeat("[a](https://x", 1<<16)},
	{"file", "see the invoice"},
	{"after", "after all that"},
}

// disguisedFile is a file name whose right-to-left override makes it read as a PDF.
const disguisedFile = "invoice\u202efdp.exe"

// writeHistory gives web/general a log.jsonl with hostileMessages from Eve, as if she had
// sent them before mom restarted.
func writeHistory(t *testing.T, ww *webWorld) {
	t.Helper()
	dir := ww.channelDir("web", "general")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var log []byte
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	eve := chat.User{ID: "web:Eve", Username: "Eve", DisplayName: "Eve"}
	for i, m := range hostileMessages {
		msg := chat.Message{ID: m.id, ChannelID: "general", TS: at.Add(time.Duration(i) * time.Second), Sender: eve, Text: m.text, IsMention: true}
		if m.id == "file" {
			msg.Attachments = []chat.Attachment{{Filename: disguisedFile, LocalPath: "attachments/1_invoice_fdp.exe", MimeType: "image/png"}}
		}
		line, err := json.Marshal(msg)
		if err != nil {
			t.Fatal(err)
		}
		log = append(append(log, line...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), log, 0o644); err != nil {
		t.Fatal(err)
	}
}

// rendered is what the page shows for a message: a JavaScript expression for its body.
func rendered(id string) string {
	return `document.querySelector('#log .msg[data-id="` + id + `"] .body')`
}

// TestWebBrowserHostileTextRenders: a channel whose history holds text that spells out the
// old renderer's placeholders, reaches into a link, carries HTML and script, or would take
// the page minutes to render, shows every message, NULs included (as U+FFFD), runs none of
// it, and keeps working: a message like them sent live and a streamed answer like them show
// too. File names (an attachment's, an event file's) show a bidi override as an escape
// rather than obey it. (The renderer itself, on the server, has its own tests:
// internal/adapter/web/markdown_test.go.)
func TestWebBrowserHostileTextRenders(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	writeHistory(t, ww)
	events := filepath.Join(ww.dir, "workspace", "events")
	if err := os.MkdirAll(events, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(events, "nosj.\u202eexe.json"),
		[]byte(`{"type": "one-shot", "channelId": "web/general", "text": "x", "at": "2031-03-14T15:30:00+01:00"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ww.llm.Enqueue(fakellm.Reply{Text: "Streamed \u00000\u0000 answer with `code` and **bold**.", EventDelay: time.Millisecond})
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.do("opening the printed address", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	p.do("picking a name", chromedp.SendKeys(chromedp.ID("name-input"), "Ada"), chromedp.Click(chromedp.ID("name-save")))
	p.until("the history", `document.body.dataset.ready === "1" && `+rendered("after")+` !== null`)

	if got := p.eval(rendered("nul") + `.textContent`); got != "a\ufffd0\ufffdb" {
		t.Errorf("NUL, 0, NUL shows as %q", got)
	}
	if got := p.eval(rendered("nul-code") + `.innerHTML`); got != "<p><code>x</code> and \ufffd0\ufffd and \ufffd1\ufffd</p>" {
		t.Errorf("NULs beside a code span show as %q", got)
	}
	if got := p.eval(rendered("link") + `.innerHTML`); got != `<p><a href="https://a.example/**b**" rel="nofollow noreferrer noopener" target="_blank">l</a> <strong>c</strong></p>` {
		t.Errorf("a link with ** in its address shows as %q", got)
	}
	if got := p.eval(rendered("html") + `.innerHTML`); got != "<p>&lt;0&gt; &lt;img src=x onerror=alert(1)&gt; &lt;1&gt;</p>" {
		t.Errorf("HTML shows as %q", got)
	}
	if got := p.eval(rendered("script") + `.textContent + "|" + String(window.pwned) + "|" + document.querySelectorAll("#log script, #log img:not(.file img), #log svg").length`); got !=
		"<script>window.pwned = 1</script>\n<img src=x onerror=\"window.pwned = 2\">\nclick <svg onload=\"window.pwned = 4\">|undefined|0" {
		t.Errorf("script in a message shows as %q (text | window.pwned | script, img and svg elements)", got)
	}
	for _, m := range hostileMessages[5:7] {
		if got := p.eval(rendered(m.id) + `.textContent.length.toString()`); got != strconv.Itoa(len(m.text)) {
			t.Errorf("message %s shows %s characters of %d", m.id, got, len(m.text))
		}
	}

	// The file's name shows its override rather than obeying it, in the link, its image's alt
	// text and the name the browser saves it under.
	if got := p.eval(`(() => { const a = document.querySelector('#log .msg[data-id="file"] .file a');
		return [a.textContent, a.getAttribute("download"), a.querySelector("img").alt].join("|") })()`); got != `⬇ invoice\u202efdp.exe|invoice\u202efdp.exe|invoice\u202efdp.exe` {
		t.Errorf("the disguised file shows as %q", got)
	}

	p.until("the event file, its override shown", `[...document.querySelectorAll("#events .file")].some(e => e.textContent === "nosj.\\u202eexe.json")`)

	// Sent while the page is open, and an answer streamed.
	if resp, body := ww.post("general", "Eve", "live \u00001\u0000 `y`", nil); resp.StatusCode != 200 {
		t.Fatalf("posting: %d %s", resp.StatusCode, body)
	}
	p.until("the live message", `[...document.querySelectorAll("#log .msg .body")].some(b => b.innerHTML === "<p>live \ufffd1\ufffd <code>y</code></p>")`)
	p.until("the streamed answer", `[...document.querySelectorAll(".run .text")].some(e => e.innerHTML === "<p>Streamed \ufffd0\ufffd answer with <code>code</code> and <strong>bold</strong>.</p>")`)
	p.until("the run to end", `document.querySelector("#stop").hidden`)
	if got := p.eval(`String(window.pwned)`); got != "undefined" {
		t.Errorf("a message ran script: window.pwned = %s", got)
	}
	ww.stop()
}
