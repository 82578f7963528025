package main

import (
	"context"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/chromedp"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The browser tests drive the web chat in Debian's chromium (headless, through chromedp) as a
// person would, against the real binary and the fake model.

// chromiumPath is where Debian installs chromium; scripts/test installs it.
const chromiumPath = "/usr/bin/chromium"

// newBrowser starts a headless chromium for the test. A missing browser fails the test with
// what to do, unless MOM_SKIP_BROWSER_TESTS=1 says the person running the tests knows.
func newBrowser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath
	if _, err := os.Stat(path); err != nil {
		if p, lerr := exec.LookPath("chromium"); lerr == nil {
			path = p
		} else if os.Getenv("MOM_SKIP_BROWSER_TESTS") == "1" {
			t.Skip("chromium is not installed and MOM_SKIP_BROWSER_TESTS=1")
		} else {
			t.Fatalf("the browser tests need Debian's chromium at %s: run scripts/test, which installs it "+
				"(or apt-get install chromium); set MOM_SKIP_BROWSER_TESTS=1 to skip them", chromiumPath)
		}
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(path), chromedp.NoSandbox, chromedp.Headless, chromedp.WindowSize(1280, 860),
		chromedp.UserDataDir(t.TempDir()))
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("starting %s: %v", path, err)
	}
	return ctx
}

// artifactsDir is where test runs keep screenshots for review: $MOM_TEST_ARTIFACTS, or
// artifacts/ at the top of the repository (ignored by git).
func artifactsDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("MOM_TEST_ARTIFACTS")
	if dir == "" {
		abs, err := filepath.Abs(filepath.Join("..", "..", "artifacts"))
		if err != nil {
			t.Fatal(err)
		}
		dir = abs
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// page drives one tab.
type page struct {
	t   *testing.T
	ctx context.Context
	ww  *webWorld
}

// do runs actions, failing the test with the page's state when one fails.
func (p *page) do(what string, steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, apptest.HangGuard)
	defer cancel()
	if err := chromedp.Do(ctx, steps...); err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, p.text())
	}
}

// until waits for a JavaScript condition on the page.
func (p *page) until(what, expr string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, apptest.HangGuard)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool]("Boolean("+expr+")", chromedp.WithPollingInterval(20*time.Millisecond))); err != nil {
		p.t.Fatalf("waiting for %s: %v\npage:\n%s\nmom's log:\n%s", what, err, p.text(), p.ww.p.err)
	}
}

// eval returns the value of a JavaScript expression.
func (p *page) eval(expr string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, apptest.HangGuard)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v", expr, err)
	}
	return s
}

// text is what the page shows, for failure messages.
func (p *page) text() string {
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	s, _ := chromedp.Run(ctx, chromedp.Evaluate[string]("document.body ? document.body.innerText : ''"))
	return s
}

// screenshot keeps what the page looks like now in the artifacts directory.
func (p *page) screenshot(name string) {
	p.t.Helper()
	shot, err := chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Fatal(err)
	}
	path := filepath.Join(artifactsDir(p.t), name)
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		p.t.Fatal(err)
	}
	p.t.Logf("screenshot of the web chat: %s", path)
}

// say types a message into the composer and sends it.
func (p *page) say(text string) {
	p.t.Helper()
	p.do("sending "+text, chromedp.SendKeys(chromedp.ID("text"), text), chromedp.Click(chromedp.ID("send")))
}

// TestWebBrowserChat is a person's visit: refused without the token; the printed address
// opens the chat; they pick a name, get a streamed answer with a tool step, stop a long tool,
// send a file whose path reaches the model, and download the file mom attaches. A screenshot
// of the conversation is kept for review.
func TestWebBrowserChat(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	marker := filepath.Join(t.TempDir(), "started")
	report := filepath.Join(t.TempDir(), "report.txt")
	if err := os.WriteFile(report, []byte("quarterly numbers\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	upload := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(upload, []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ww.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})),
		fakellm.Reply{Text: "Done: **hi** from the browser, with `code`.", EventDelay: 5 * time.Millisecond},
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Wait for a long time", "command": "touch " + marker + " && sleep 300"})),
		fakellm.Text("I see notes.txt: remember the milk."),
		fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Share the report", "path": report, "title": "Q3 report"})),
		fakellm.Text("Here is the report."),
	)
	ww.run()
	p := &page{t: t, ctx: ctx, ww: ww}

	resp, err := chromedp.Run(ctx, chromedp.NavigateResponse(ww.base))
	if err != nil || resp.Status != 401 || !strings.Contains(p.text(), "needs its access token") {
		t.Fatalf("without the token: %v %v\n%s", resp, err, p.text())
	}

	p.do("opening the printed address", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	if loc := p.eval("location.href"); loc != ww.base {
		t.Errorf("the token stayed in the address bar: %s", loc)
	}
	p.do("picking a name", chromedp.SendKeys(chromedp.ID("name-input"), "Ada"), chromedp.Click(chromedp.ID("name-save")))
	p.until("the chat to load", `document.body.dataset.ready === "1" && !document.querySelector("#name-dialog").open`)

	// A streamed answer with a tool step.
	p.say("please greet")
	p.until("the tool step", `[...document.querySelectorAll(".run .tool summary")].some(s => s.textContent.startsWith("→ Say hi ✓"))`)
	p.until("the answer", `[...document.querySelectorAll(".run .text")].some(e => e.innerHTML.includes("Done: <strong>hi</strong> from the browser, with <code>code</code>."))`)
	p.until("the question above the answer", `document.querySelector("#log .msg:not(.run)").textContent.includes("please greet") &&
		document.querySelector("#log .msg:not(.run)").compareDocumentPosition(document.querySelector("#log .run")) === Node.DOCUMENT_POSITION_FOLLOWING`)
	p.until("the usage line", `[...document.querySelectorAll(".run .usage")].some(e => e.textContent.includes(" in, "))`)
	if out := p.eval(`document.querySelector(".run .tool .output").textContent`); !strings.Contains(out, "hi-from-bash") {
		t.Errorf("tool output = %q", out)
	}
	p.eval(`document.querySelector(".run .tool").open = true; ""`) // show a tool's details too
	p.screenshot("web-chat-answer.png")

	// Stop during a long tool.
	p.say("do the long thing")
	p.until("the long tool", `[...document.querySelectorAll(".run .tool.running summary")].some(s => s.textContent.includes("Wait for a long time"))`)
	apptest.WaitForFile(t, marker)
	p.until("the stop button", `!document.querySelector("#stop").hidden`)
	p.do("pressing stop", chromedp.Click(chromedp.ID("stop")))
	p.until("the run to stop", `[...document.querySelectorAll(".run .outcome.stopped")].some(e => e.textContent === "Stopped.")`)
	p.until("the person's stop", `[...document.querySelectorAll("#log .msg .body")].some(b => b.textContent === "stop")`)
	// The note "Stopping…" goes when the run has stopped: "Stopped." says the rest.
	p.until("the stop button to go, and no Stopping… left", `document.querySelector("#stop").hidden &&
		![...document.querySelectorAll("#log .notice")].some(n => n.textContent === "Stopping…")`)

	// Upload a file; its path reaches the model.
	p.do("attaching a file", chromedp.SetUploadFiles(chromedp.ID("file"), []string{upload}))
	p.until("the picked file", `document.querySelector("#picked").textContent.includes("notes.txt")`)
	p.say("what is in the file?")
	p.until("the answer about the file", `document.querySelector("#log").textContent.includes("I see notes.txt")`)
	if got := p.eval(`document.querySelector("#log").innerText`); strings.Contains(got, "Stopping…") {
		t.Errorf("the chat still says Stopping… after the run stopped:\n%s", got)
	}
	prompt := ww.waitRequests(4)[3].LastUserText()
	if !regexp.MustCompile(`\[Ada\]: what is in the file\?\s+<attachments>\n\S+/channels/web/general/attachments/\d+_notes\.txt`).MatchString(prompt) {
		t.Errorf("the model saw:\n%s", prompt)
	}
	p.until("the sent file's link", `[...document.querySelectorAll(".msg .file a")].some(a => a.textContent.includes("notes.txt"))`)

	// Download the file mom attaches.
	downloads := t.TempDir()
	p.do("allowing downloads", chromedp.Func(func(ctx context.Context, _ *chromedp.Target) error {
		_, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
			Behavior: browser.SetDownloadBehaviorBehaviorAllow, DownloadPath: downloads})
		return err
	}))
	p.say("send me the report")
	p.until("the report's link in mom's answer", `[...document.querySelectorAll(".run .file a")].some(a => a.textContent.includes("report.txt"))`)
	p.until("the answer after the file", `document.querySelector("#log").textContent.includes("Here is the report.")`)
	p.do("clicking the report", chromedp.Click(`//div[contains(@class,"mom")]//a[contains(., "report.txt")]`))
	saved := filepath.Join(downloads, "report.txt")
	apptest.WaitForFile(t, saved)
	apptest.Eventually(t, "the download to finish", func() bool {
		b, _ := os.ReadFile(saved)
		return string(b) == "quarterly numbers\n"
	})

	p.screenshot("web-chat.png")

	// History survives a reload: the person's messages and mom's answers come from log.jsonl.
	p.do("reloading", chromedp.Reload())
	p.until("the history", `document.body.dataset.ready === "1" && document.querySelectorAll(".msg").length >= 8`)
	if got := p.eval(`document.querySelector("#log").textContent`); !strings.Contains(got, "please greet") || !strings.Contains(got, "Here is the report.") {
		t.Errorf("history after a reload:\n%s", got)
	}
	ww.stop()
	if n := len(ww.llm.Requests()); n != 6 {
		t.Errorf("%d model requests, want 6", n)
	}
}
