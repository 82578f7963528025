package main

import (
	"context"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/mom-agent/mom/internal/chat"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The web chat at a phone's size and a desktop's, as a person uses it: the layout, what
// markdown looks like, the history after a reload, mom going away and coming back, reading
// older messages while mom writes, the keyboard alone, and an automated accessibility check.
// Screenshots of each go to artifacts/ for review.

// axeVersion is the axe-core vendored in testdata/axe (see its README).
const axeVersion = "4.14.1"

// Viewports: a phone (an iPhone 12 to 15's CSS size) and a laptop.
const (
	phoneWidth, phoneHeight     = 390, 844
	desktopWidth, desktopHeight = 1280, 800
)

// phone makes the page a phone's: its size, touch and mobile mode.
func (p *page) phone() {
	p.t.Helper()
	p.do("emulating a phone", chromedp.EmulateViewport(phoneWidth, phoneHeight, chromedp.EmulateScale(2), chromedp.EmulateMobile, chromedp.EmulateTouch))
}

// desktop makes the page a laptop's.
func (p *page) desktop() {
	p.t.Helper()
	p.do("emulating a laptop", chromedp.EmulateViewport(desktopWidth, desktopHeight))
}

// dark makes the browser prefer a dark color scheme, or not.
func (p *page) dark(on bool) {
	p.t.Helper()
	scheme := "light"
	if on {
		scheme = "dark"
	}
	p.do("setting the color scheme", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	}))
}

// open opens the chat with the token and picks a name, then waits for the channel to load.
func (p *page) open(name string) {
	p.t.Helper()
	p.do("opening the printed address", chromedp.Navigate(p.ww.base+"?token="+p.ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	p.do("picking a name", chromedp.SendKeys(chromedp.ID("name-input"), name), chromedp.Click(chromedp.ID("name-save")))
	p.until("the chat to load", `document.body.dataset.ready === "1" && !document.querySelector("#name-dialog").open`)
}

// axe runs axe-core (vendored from its npm package) on the page and fails the test on every
// serious or critical finding, naming the rule and the elements.
func (p *page) axe(what string) {
	p.t.Helper()
	src, err := os.ReadFile(filepath.Join("testdata", "axe", "axe.min.js"))
	if err != nil {
		p.t.Fatalf("axe-core %s: %v", axeVersion, err)
	}
	p.eval(string(src) + `; ""`)
	got := p.eval(`axe.run(document, {resultTypes: ["violations"]}).then(r => JSON.stringify(r.violations
		.filter(v => v.impact === "serious" || v.impact === "critical")
		.map(v => v.impact + " " + v.id + ": " + v.help + "\n  " + v.nodes.slice(0, 5).map(n => n.target.join(" ") + " — " + (n.failureSummary || "").replace(/\n/g, " ")).join("\n  "))))`)
	var found []string
	if err := json.Unmarshal([]byte(got), &found); err != nil {
		p.t.Fatalf("axe's answer %q: %v", got, err)
	}
	for _, f := range found {
		p.t.Errorf("axe-core %s finds on %s: %s", axeVersion, what, f)
	}
}

// richAnswer is markdown of every kind the page renders.
const richAnswer = "## Plan\n\n- first\n- second\n\n| file | size |\n|---|--:|\n| a.txt | 12 |\n\n```go\nfmt.Println(\"hi\")\n```\n\n> a quote with ~~old~~ text, see https://example.com"

// renderedRich is a JavaScript condition: the newest answer shows richAnswer as a heading, a
// list, a table and a code block with its language and a Copy button.
const renderedRich = `(() => { const t = [...document.querySelectorAll(".run .text")].pop(); return t &&
	t.querySelector("h2").textContent === "Plan" && t.querySelectorAll("ul li").length === 2 &&
	t.querySelector("table td:last-child").textContent === "12" && t.querySelector("blockquote del") &&
	t.querySelector(".code .lang").textContent === "go" && t.querySelector(".code .copy").textContent === "Copy" &&
	t.querySelector(".code pre code").textContent.includes('fmt.Println("hi")') &&
	t.querySelector('a[href="https://example.com"]') })()`

// TestWebBrowserPhone: at a phone's size the channel list is a drawer behind ☰, the message
// box and Send fit the screen, and nothing scrolls sideways. A person names themselves (and
// can type at once), gets an answer with a heading, a list, a table and a code block, opens
// the drawer, switches channel and talks there; in the dark palette too. axe-core finds
// nothing serious, drawer closed or open, light or dark.
func TestWebBrowserPhone(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	ww.llm.Enqueue(fakellm.Reply{Text: richAnswer, EventDelay: 2 * time.Millisecond}, fakellm.Text("Hello from ops."))
	ww.run()
	if resp, body := ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name":"ops"}`), nil); resp.StatusCode != 201 {
		t.Fatalf("creating ops: %d %s", resp.StatusCode, body)
	}
	p := &page{t: t, ctx: ctx, ww: ww}
	p.phone()
	p.open("Ada")
	if got := p.eval(`document.activeElement.id`); got != "text" {
		t.Errorf("after naming themselves, the focus is on %q, not the message box", got)
	}
	layout := p.eval(`(() => { const r = (s) => document.querySelector(s).getBoundingClientRect();
		const side = getComputedStyle(document.querySelector("#side"));
		return JSON.stringify({side: side.visibility === "hidden" || r("#side").right <= 0, menu: r("#menu").width > 0,
			text: Math.round(r("#text").width), send: r("#send").right <= innerWidth && r("#send").bottom <= innerHeight,
			sideways: document.documentElement.scrollWidth > innerWidth}) })()`)
	var got struct {
		Side, Menu, Send, Sideways bool
		Text                       int
	}
	if err := json.Unmarshal([]byte(layout), &got); err != nil {
		t.Fatal(err)
	}
	if !got.Side || !got.Menu || !got.Send || got.Sideways || got.Text < 200 {
		t.Errorf("the phone layout: side bar hidden %v, ☰ shown %v, Send on screen %v, scrolls sideways %v, message box %d px wide",
			got.Side, got.Menu, got.Send, got.Sideways, got.Text)
	}

	// "mom is working…" shows from the run's start to its first output.
	p.eval(`window.sawWorking = false; new MutationObserver(() => { const w = document.querySelector(".run .working");
		if (w && w.textContent === "mom is working…") window.sawWorking = true }).observe(document.querySelector("#log"), {childList: true, subtree: true}); ""`)
	p.say("show me markdown")
	p.until("the rich answer", renderedRich)
	p.until("the run to end", `document.querySelector("#stop").hidden && document.querySelector(".run .usage")`)
	if got := p.eval(`String(window.sawWorking) + " " + document.querySelectorAll(".run .working").length`); got != "true 0" {
		t.Errorf("the working indicator (shown, still there): %s", got)
	}
	p.screenshot("web-phone-chat.png")
	p.axe("the phone layout")

	p.do("opening the drawer", chromedp.Click(chromedp.ID("menu")))
	p.until("the drawer, with the focus on the current channel", `document.querySelector("#side").classList.contains("open") &&
		document.activeElement === document.querySelector('#channels li[data-id="general"] button') &&
		document.querySelector("#menu").getAttribute("aria-expanded") === "true" && document.querySelector("#side").getBoundingClientRect().left === 0`)
	p.screenshot("web-phone-drawer.png")
	p.axe("the phone layout with the drawer open")
	p.do("opening ops", chromedp.Click(`#channels li[data-id="ops"] button`))
	p.until("ops, the drawer closed", `document.body.dataset.ready === "1" && document.querySelector("#channel-title").textContent === "web/ops" &&
		!document.querySelector("#side").classList.contains("open") && document.activeElement.id === "text"`)
	p.say("hello ops")
	p.until("mom's answer in ops", `[...document.querySelectorAll(".run .text")].some(e => e.textContent === "Hello from ops.")`)
	p.until("the run to end", `document.querySelector("#stop").hidden`)

	p.dark(true)
	p.do("back to general", chromedp.Click(chromedp.ID("menu")))
	p.until("the drawer, slid in", `document.activeElement === document.querySelector('#channels li[data-id="ops"] button') &&
		document.querySelector("#side").getBoundingClientRect().left === 0`)
	p.do("opening general", chromedp.Click(`#channels li[data-id="general"] button`))
	p.until("general again, the drawer out of sight", `document.body.dataset.ready === "1" && document.querySelector("#channel-title").textContent === "web/general" &&
		document.querySelector("#side").getBoundingClientRect().right <= 0`)
	p.until("the rich answer from the history", renderedRich)
	if bg := p.eval(`getComputedStyle(document.body).backgroundColor`); bg != "rgb(13, 17, 23)" {
		t.Errorf("the dark palette's background is %s", bg)
	}
	p.screenshot("web-phone-dark.png")
	p.axe("the phone layout in the dark palette")
	ww.stop()
}

// TestWebBrowserHistoryMatchesLive: a conversation with a tool step, a table, a note (a
// message queued while mom works), a model server that fails until mom gives up (one error
// card: "retried 3 times", the error folded, Retry) and the Retry's answer looks the same
// after a reload as it did live: the chat's text, with every step's arguments and result
// unfolded, is identical. `mom download` tells the same story.
func TestWebBrowserHistoryMatchesLive(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	hold := make(chan struct{})
	ww.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "List the files", "command": "echo a.txt b.txt"})),
		fakellm.Reply{Text: "Two files:\n\n| name |\n|---|\n| a.txt |\n| b.txt |", EventDelay: 2 * time.Millisecond, Hold: hold},
		fakellm.Overloaded(), fakellm.Overloaded(), fakellm.Overloaded(), fakellm.Overloaded(),
		fakellm.Text("Third time lucky."),
	)
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.desktop()
	p.open("Ada")
	p.say("what files are there?")
	p.until("the answer, held open", `document.querySelector(".run .text table")`)
	if resp, body := ww.post("general", "Bob", "and how big are they?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	p.until("mom's note that Bob's message waits", `[...document.querySelectorAll("#log .notice")].some(n => n.textContent.startsWith("Queued"))`)
	close(hold)
	p.until("the error card", `document.querySelector(".card.error .card-title")`)
	if got := p.eval(`document.querySelector(".card.error .card-title").textContent`); got != "The model server is failing or overloaded — retried 3 times" {
		t.Errorf("the error card says %q", got)
	}
	if got := p.eval(`document.querySelector(".card.error details pre").textContent`); !strings.Contains(got, "529") {
		t.Errorf("the error card's details: %q", got)
	}
	if n := p.eval(`String(document.querySelectorAll(".run .status").length)`); n != "0" {
		t.Errorf("%s retry lines stay beside the error card:\n%s", n, p.eval(`document.querySelector("#log").innerText`))
	}
	p.until("the run to end", `document.querySelector("#stop").hidden`)
	p.do("pressing Retry", chromedp.Click(`.card.error .buttons button`))
	p.until("the retried question's answer", `[...document.querySelectorAll(".run .text")].some(e => e.textContent === "Third time lucky.")`)
	p.until("the run to end", `document.querySelector("#stop").hidden && document.querySelectorAll(".run .usage").length === 2`) // the failed run used no tokens
	if reqs := ww.llm.Requests(); !strings.Contains(reqs[len(reqs)-1].LastUserText(), "[Ada]: and how big are they?") {
		t.Errorf("Retry sent the model:\n%s", reqs[len(reqs)-1].LastUserText())
	}
	shown := `(() => { for (const d of document.querySelectorAll("#log details")) d.open = true;
		return document.querySelector("#log").innerText })()`
	live := p.eval(shown)
	p.screenshot("web-desktop-live.png")

	p.eval(`delete document.body.dataset.ready; ""`)
	p.do("reloading", chromedp.Reload())
	p.until("the history", `document.body.dataset.ready === "1"`)
	if again := p.eval(shown); again != live {
		t.Errorf("the history differs from the live view.\nlive:\n%s\n\nafter a reload:\n%s", live, again)
	}
	for _, want := range []string{"→ List the files ✓", "a.txt b.txt", "Queued", "retried 3 times", "Third time lucky.", " in, "} {
		if !strings.Contains(live, want) {
			t.Errorf("the chat lacks %q:\n%s", want, live)
		}
	}
	p.eval(`for (const d of document.querySelectorAll("#log details")) d.open = false; ""`)
	p.screenshot("web-desktop-history.png")
	p.axe("the desktop layout")
	p.dark(true)
	p.axe("the desktop layout in the dark palette")
	p.screenshot("web-desktop-dark.png")
	ww.stop()

	res := ww.mom("", "download", ww.dir, "web/general")
	for _, want := range []string{"Ada: what files are there?", "→ List the files ✓", "mom: Two files:", "(mom: Queued",
		"✗ The model server is failing or overloaded — retried 3 times", "mom: Third time lucky.", "↳ "} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("mom download lacks %q:\n%s%s", want, res.stdout, res.stderr)
		}
	}
	if strings.Contains(res.stdout, "Sorry, something went wrong") {
		t.Errorf("mom download shows the failure twice:\n%s", res.stdout)
	}
}

// freeAddr returns a loopback address with a port nobody listens on now.
func freeAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().String()
}

// TestWebBrowserScrollingAndOffline: a person reading older messages is not moved by mom's
// streamed answer; a "New messages" button takes them down. When mom goes away, a banner says
// so and Send is disabled; when it is back, the page reconnects by itself.
func TestWebBrowserScrollingAndOffline(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorldAt(t, freeAddr(t), "", "")
	dir := ww.channelDir("web", "general")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var log []byte
	at := time.Now().Add(-time.Hour)
	eve := chat.User{ID: "web:Eve", Username: "Eve", DisplayName: "Eve"}
	for i := range 60 {
		line, _ := json.Marshal(chat.Message{ID: "old" + string(rune('a'+i%26)) + string(rune('a'+i/26)), ChannelID: "general",
			TS: at.Add(time.Duration(i) * time.Second), Sender: eve, Text: "an older message", IsMention: true})
		log = append(append(log, line...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), log, 0o644); err != nil {
		t.Fatal(err)
	}
	ww.llm.Enqueue(fakellm.Reply{Text: strings.Repeat("A long answer, line by line.\n\n", 30), EventDelay: 5 * time.Millisecond})
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.desktop()
	p.open("Ada")
	p.until("the newest message in view", `(() => { const l = document.querySelector("#log"); return l.scrollHeight > l.clientHeight * 2 &&
		l.scrollHeight - l.scrollTop - l.clientHeight < 48 })()`)

	p.eval(`document.querySelector("#log").scrollTop = 0; ""`)
	p.until("the reader at the top", `!state.follow`)
	if resp, body := ww.post("general", "Bob", "write a lot", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	p.until("the answer to end", `document.querySelector("#stop").hidden && document.querySelector(".run .usage")`)
	if top := p.eval(`String(document.querySelector("#log").scrollTop)`); top != "0" {
		t.Errorf("the stream moved the reader to %s px", top)
	}
	p.until("the New messages button", `!document.querySelector("#new-messages").hidden`)
	p.screenshot("web-desktop-new-messages.png")
	p.do("pressing New messages", chromedp.Click(chromedp.ID("new-messages")))
	p.until("the newest message in view", `(() => { const l = document.querySelector("#log"); return l.scrollHeight - l.scrollTop - l.clientHeight < 48 })() &&
		document.querySelector("#new-messages").hidden`)

	p.do("typing while mom is away", chromedp.SendKeys(chromedp.ID("text"), "are you there?"))
	ww.stop()
	p.until("the offline banner, Send disabled", `!document.querySelector("#offline").hidden && document.querySelector("#send").disabled`)
	p.screenshot("web-desktop-offline.png")
	p.axe("the page with mom away")
	ww.run()
	p.until("the page back by itself", `document.querySelector("#offline").hidden && !document.querySelector("#send").disabled &&
		document.body.dataset.ready === "1" && document.querySelector("#text").value === "are you there?"`)
	ww.stop()
}

// TestWebBrowserKeyboardOnly: with the keyboard alone a person names themselves, reaches the
// channel list and switches channel, opens Attach, and sends a message with the file.
func TestWebBrowserKeyboardOnly(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	ww.llm.Enqueue(fakellm.Text("Got your file."))
	ww.run()
	if resp, body := ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name":"ops"}`), nil); resp.StatusCode != 201 {
		t.Fatalf("creating ops: %d %s", resp.StatusCode, body)
	}
	upload := filepath.Join(t.TempDir(), "plan.txt")
	if err := os.WriteFile(upload, []byte("the plan\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	p := &page{t: t, ctx: ctx, ww: ww}
	p.desktop()
	p.do("opening the printed address", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog, focused", `document.querySelector("#name-dialog").open && document.activeElement.id === "name-input"`)
	p.do("typing a name and Enter", chromedp.KeyEvent("Ada"+kb.Enter))
	p.until("the chat, focus in the message box", `document.body.dataset.ready === "1" && document.activeElement.id === "text"`)

	p.tabTo("the ops channel", `document.querySelector('#channels li[data-id="ops"] button')`)
	p.do("pressing Enter", chromedp.KeyEvent(kb.Enter))
	p.until("ops open", `document.body.dataset.ready === "1" && document.querySelector("#channel-title").textContent === "web/ops"`)

	p.tabTo("Attach", `document.querySelector("#attach")`)
	// The file chooser is the system's; the test stands in for it once it was asked to open.
	p.eval(`document.querySelector("#file").addEventListener("click", (e) => { e.preventDefault(); window.chooserOpened = true }, {once: true}); ""`)
	p.do("pressing Enter on Attach", chromedp.KeyEvent(kb.Enter))
	p.until("the file chooser", `window.chooserOpened === true`)
	p.do("picking a file", chromedp.SetUploadFiles(chromedp.ID("file"), []string{upload}, chromedp.NodeReady))
	p.until("the picked file", `document.querySelector("#picked").textContent.includes("plan.txt")`)

	p.tabTo("the message box", `document.querySelector("#text")`)
	p.do("typing and Enter", chromedp.KeyEvent("here is the plan"+kb.Enter))
	p.until("the message with its file, and the answer", `[...document.querySelectorAll("#log .msg .file a")].some(a => a.textContent.includes("plan.txt")) &&
		[...document.querySelectorAll(".run .text")].some(e => e.textContent === "Got your file.")`)
	lines, err := os.ReadFile(filepath.Join(ww.channelDir("web", "ops"), "log.jsonl"))
	if err != nil || !strings.Contains(string(lines), `"text":"here is the plan"`) || !strings.Contains(string(lines), "plan.txt") {
		t.Errorf("ops' log.jsonl: %s %v", lines, err)
	}
	p.screenshot("web-desktop-keyboard.png")
	ww.stop()
}

// tabTo presses Tab until the element target (a JavaScript expression) has the focus, and
// fails the test if forty presses do not get there.
func (p *page) tabTo(what, target string) {
	p.t.Helper()
	for range 40 {
		if p.eval(`String(document.activeElement === `+target+`)`) == "true" {
			return
		}
		p.do("pressing Tab", chromedp.KeyEvent(kb.Tab))
	}
	p.t.Fatalf("Tab does not reach %s; the focus is on %s", what, p.eval(`document.activeElement.outerHTML.slice(0, 200)`))
}
