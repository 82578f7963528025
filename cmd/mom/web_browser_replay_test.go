package main

import (
	"context"
	"encoding/json"
	"github.com/mom-agent/mom/internal/apptest"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/chromedp"

	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// shownOnce fails the test unless the chat log shows each of texts exactly once, once the
// page has loaded.
func (p *page) shownOnce(who string, texts ...string) {
	p.t.Helper()
	p.until(who+" to load", `document.body.dataset.ready === "1"`)
	list, _ := json.Marshal(texts)
	got := p.eval(`JSON.stringify(` + string(list) + `.map(s => document.querySelector("#log").textContent.split(s).length - 1))`)
	var counts []int
	if err := json.Unmarshal([]byte(got), &counts); err != nil {
		p.t.Fatalf("counting %v: %v (%s)", texts, err, got)
	}
	for i, n := range counts {
		if n != 1 {
			p.t.Errorf("%s shows %q %d times, want once; the page:\n%s", who, texts[i], n, p.text())
		}
	}
}

// historyGate holds back the page's history requests while a test makes something happen.
type historyGate struct {
	p       *page
	mu      sync.Mutex
	armed   bool
	caught  chan *fetch.EventRequestPaused
	channel string
}

// gateHistory intercepts the page's history requests for channel. They go on at once unless
// the gate is armed.
func (p *page) gateHistory(channel string) *historyGate {
	p.t.Helper()
	g := &historyGate{p: p, caught: make(chan *fetch.EventRequestPaused, 1), channel: channel}
	paused := make(chan *fetch.EventRequestPaused, 64)
	if err := chromedp.Listen(p.ctx, func(ev any) {
		if e, ok := ev.(*fetch.EventRequestPaused); ok {
			paused <- e
		}
	}); err != nil {
		p.t.Fatal(err)
	}
	go func() {
		for {
			var e *fetch.EventRequestPaused
			select {
			case e = <-paused:
			case <-p.ctx.Done():
				return
			}
			g.mu.Lock()
			armed := g.armed
			g.armed = false
			g.mu.Unlock()
			if armed {
				g.caught <- e
			} else {
				resume(p.ctx, e)
			}
		}
	}()
	if _, err := chromedp.Call(p.ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{
		{URLPattern: "*/api/channels/" + channel + "/messages*", RequestStage: fetch.RequestStageRequest},
	}}); err != nil {
		p.t.Fatal(err)
	}
	return g
}

// arm makes the next history request wait.
func (g *historyGate) arm() {
	g.mu.Lock()
	g.armed = true
	g.mu.Unlock()
}

// held waits until the page has asked for the history and returns what lets the request go.
func (g *historyGate) held() func() {
	g.p.t.Helper()
	ctx, cancel := context.WithTimeout(g.p.ctx, apptest.HangGuard)
	defer cancel()
	select {
	case e := <-g.caught:
		return func() { resume(g.p.ctx, e) }
	case <-ctx.Done():
		g.p.t.Fatalf("the page did not ask for the history of %s\n%s", g.channel, g.p.text())
		return nil
	}
}

// resume lets a paused request go on.
func resume(ctx context.Context, e *fetch.EventRequestPaused) {
	_, _ = chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: e.RequestID})
}

// TestWebBrowserReloadMidRun: a person reloads the page, switches channel and back, loses the
// WebSocket and opens a second tab while mom is in the middle of a run whose first answer is
// already in log.jsonl; then reloads so that the run ends, and then so that a whole new run
// happens, while the page waits for its history. Every time, the page shows each message
// exactly once. An answer that fails after streaming and is retried shows only the retry.
func TestWebBrowserReloadMidRun(t *testing.T) {
	ctx := newBrowser(t)
	ww := newWebWorld(t, "", "")
	release := fakeweb.ScriptMidRun(t, ww.llm)
	ww.run()
	if resp, body := ww.request("POST", "/api/channels", ww.token, strings.NewReader(`{"name":"ops"}`), nil); resp.StatusCode != 201 {
		t.Fatalf("creating ops: %d %s", resp.StatusCode, body)
	}
	watch := ww.openTab()
	p := &page{t: t, ctx: ctx, ww: ww}
	p.do("opening the chat", chromedp.Navigate(ww.base+"?token="+ww.token))
	p.until("the name dialog", `document.querySelector("#name-dialog").open`)
	p.do("picking a name", chromedp.SendKeys(chromedp.ID("name-input"), "Ada"), chromedp.Click(chromedp.ID("name-save")))
	p.until("the chat to load", `document.body.dataset.ready === "1" && !document.querySelector("#name-dialog").open`)

	p.say("what is the answer?")
	p.until("the last answer, held open", `document.querySelector("#log .run") && document.querySelector("#log .run").textContent.includes("The answer is 42.")`)
	texts := []string{"what is the answer?", "Let me look.", "→ Look", "The answer is 42."}
	p.shownOnce("the page that sent the question", texts...)

	p.do("reloading mid-run", chromedp.Reload())
	p.shownOnce("the page reloaded mid-run", texts...)

	p.do("switching to ops", chromedp.Click(`#channels li[data-id="ops"]`))
	p.until("ops to load", `document.body.dataset.ready === "1" && document.querySelector("#channel-title").textContent.endsWith("/ops")`)
	p.do("switching back", chromedp.Click(`#channels li[data-id="general"]`))
	p.shownOnce("the page back from another channel", texts...)

	// The client closes the socket here; the page takes a close by the server (a slow
	// browser) the same way: it reconnects and loads again.
	p.eval(`delete document.body.dataset.ready; state.ws.close(); ""`)
	p.shownOnce("the page after the WebSocket dropped", texts...)

	tabCtx, closeTab := chromedp.NewContext(ctx)
	defer closeTab()
	if err := chromedp.Do(tabCtx); err != nil { // the tab lives as long as tabCtx
		t.Fatal(err)
	}
	second := &page{t: t, ctx: tabCtx, ww: ww}
	second.do("opening a second tab", chromedp.Navigate(ww.base))
	second.shownOnce("the second tab", texts...)

	// The run ends between the replay and the history: its last answer is in log.jsonl when
	// the history comes.
	gate := p.gateHistory("general")
	gate.arm()
	p.do("reloading once more", chromedp.Reload())
	goOn := gate.held()
	release()
	watch.ReadUntil("the run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	goOn()
	p.shownOnce("the page whose history came after the run", texts...)
	p.until("the usage line", `document.querySelector("#log .run .usage")`)

	// A whole run happens after the hello and before the history comes.
	gate.arm()
	p.do("reloading again", chromedp.Reload())
	goOn = gate.held()
	if resp, body := ww.post("general", "Bob", "and again?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	watch.ReadUntil("the second run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	goOn()
	// The first run's tool step was shown from frames; it is not in log.jsonl.
	p.shownOnce("the page whose history came after a whole run",
		"what is the answer?", "Let me look.", "The answer is 42.", "and again?", "Still 42.")
	second.until("the second run in the second tab", `document.querySelector("#log").textContent.includes("Still 42.")`)
	second.shownOnce("the second tab", append(texts, "and again?", "Still 42.")...)

	// An answer fails after its text streamed and is retried: the page drops what the failed
	// attempt wrote.
	p.say("once more?")
	p.until("the retried answer", `document.querySelector("#log").textContent.includes("Done.") && document.querySelector("#stop").hidden`)
	p.shownOnce("the page that saw an answer retried", "once more?", "Done.")
	if got := p.eval(`document.querySelector("#log").textContent`); strings.Contains(got, "Half an answer") {
		t.Errorf("the page still shows the attempt that failed:\n%s", got)
	}
	ww.stop()
}
