package main

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/coder/websocket"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// A page is what log.jsonl says (the history) plus what the WebSocket says (the run in
// progress, replayed on connect, then everything live). These tests play the page's part
// over the wire, as app.js does, and check that the two never show the same answer twice
// however a reload, a reconnect or a second tab falls against a run.

// wireFrame is a WebSocket frame as the page reads it.
type wireFrame struct {
	Type    string       `json:"type"`
	Channel string       `json:"channel"`
	Run     string       `json:"run"`
	Text    string       `json:"text"`
	From    *int64       `json:"from"`
	Message *wireMessage `json:"message"`
}

// wireMessage is a message as the history and message frames carry it.
type wireMessage struct {
	ID     string `json:"id"`
	Text   string `json:"text"`
	Sender struct {
		IsBot bool `json:"isBot"`
	} `json:"sender"`
}

// tab is one browser tab's WebSocket and the frames it has read since hello.
type tab struct {
	ww     *webWorld
	conn   *websocket.Conn
	frames []wireFrame
}

// openTab connects a WebSocket, as a page does when it opens, and reads the replay of the
// runs in progress up to hello.
func (ww *webWorld) openTab() *tab {
	ww.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ww.t.Cleanup(cancel)
	u := "ws" + strings.TrimPrefix(ww.base, "http") + "ws"
	conn, _, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + ww.token}}})
	if err != nil {
		ww.t.Fatalf("WebSocket: %v", err)
	}
	conn.SetReadLimit(1 << 20)
	ww.t.Cleanup(func() { conn.CloseNow() })
	tb := &tab{ww: ww, conn: conn}
	tb.readUntil("hello", func(f wireFrame) bool { return f.Type == "hello" })
	return tb
}

// read reads the next frame and keeps it.
func (tb *tab) read() wireFrame {
	tb.ww.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	_, b, err := tb.conn.Read(ctx)
	if err != nil {
		tb.ww.t.Fatalf("reading a frame after %d: %v\nstderr:\n%s", len(tb.frames), err, tb.ww.p.err)
	}
	var f wireFrame
	if err := json.Unmarshal(b, &f); err != nil {
		tb.ww.t.Fatalf("frame %s: %v", b, err)
	}
	tb.frames = append(tb.frames, f)
	return f
}

// readUntil reads (and keeps) frames up to the first one for which done holds.
func (tb *tab) readUntil(what string, done func(wireFrame) bool) {
	tb.ww.t.Helper()
	for !done(tb.read()) {
	}
}

// runsFrom is where the page's runs of channel begin in log.jsonl: the least "from" of the
// run_start frames it holds, or nil when it holds none.
func (tb *tab) runsFrom(channel string) *int64 {
	var from *int64
	for _, f := range tb.frames {
		if f.Type == "run_start" && f.Channel == channel && f.From != nil && (from == nil || *f.From < *from) {
			from = f.From
		}
	}
	return from
}

// history fetches channel's history as the page does, leaving out what its runs' frames
// draw.
func (tb *tab) history(channel string, from *int64) []wireMessage {
	tb.ww.t.Helper()
	path := "/api/channels/" + channel + "/messages"
	if from != nil {
		path += "?runsFrom=" + strconv.FormatInt(*from, 10)
	}
	resp, body := tb.ww.request("GET", path, tb.ww.token, nil, nil)
	var h struct{ Messages []wireMessage }
	if err := json.Unmarshal([]byte(body), &h); err != nil || resp.StatusCode != 200 {
		tb.ww.t.Fatalf("history: %d %v\n%s", resp.StatusCode, err, body)
	}
	return h.Messages
}

// page is the text the page shows of channel, built as app.js builds it: the history, then
// the frames it queued meanwhile: messages it does not have yet (by id), and every run drawn
// from its frames, one block per answer. An answer still open when another begins was an
// attempt that failed, and goes.
func (tb *tab) page(channel string, history []wireMessage) string {
	tb.ww.t.Helper()
	var blocks []*string
	shown := map[string]bool{}
	for _, m := range history {
		shown[m.ID] = true
		blocks = append(blocks, &m.Text)
	}
	started := map[string]bool{}
	open := map[string]*string{} // run → its answer being written
	for _, f := range tb.frames {
		if f.Channel != channel {
			continue
		}
		if f.Run != "" && f.Type != "run_start" && !started[f.Run] {
			tb.ww.t.Errorf("a %s frame of run %s, which never started on this connection", f.Type, f.Run)
		}
		switch f.Type {
		case "message":
			if !shown[f.Message.ID] {
				shown[f.Message.ID] = true
				blocks = append(blocks, &f.Message.Text)
			}
		case "run_start":
			started[f.Run] = true
		case "message_start":
			if b := open[f.Run]; b != nil {
				*b = ""
			}
			open[f.Run] = nil
		case "text":
			if open[f.Run] == nil {
				open[f.Run] = new(string)
				blocks = append(blocks, open[f.Run])
			}
			*open[f.Run] += f.Text
		case "message_end", "tool_start":
			open[f.Run] = nil
		}
	}
	var out []string
	for _, b := range blocks {
		if *b != "" {
			out = append(out, *b)
		}
	}
	return strings.Join(out, "\n")
}

// load is what the page shows once it has loaded channel: history fetched with what its
// frames cover left out, then its queued frames.
func (tb *tab) load(channel string) string {
	tb.ww.t.Helper()
	return tb.page(channel, tb.history(channel, tb.runsFrom(channel)))
}

// once fails the test unless every one of texts appears exactly once on the page.
func once(t *testing.T, who, page string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if n := strings.Count(page, s); n != 1 {
			t.Errorf("%s shows %q %d times, want once; the page:\n%s", who, s, n, page)
		}
	}
}

// scriptMidRun has the fake model answer a first run with a tool step and then an answer
// held open until release is called (after which a second run is answered "Still 42."), and
// a third run with an answer that fails mid-stream and its retry, "Done.".
func scriptMidRun(t *testing.T, ww *webWorld) (release func()) {
	hold := make(chan struct{})
	var once sync.Once
	release = func() { once.Do(func() { close(hold) }) }
	t.Cleanup(release)
	ww.llm.Enqueue(
		fakellm.Reply{Text: "Let me look.", ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]any{"label": "Look", "command": "echo looked"})}},
		fakellm.Reply{Text: "The answer is 42.", ChunkSize: 100, Hold: hold},
		fakellm.Text("Still 42."),
		fakellm.Reply{Text: "Half an answer", StreamError: &fakellm.APIError{Type: "overloaded_error", Message: "Overloaded"}},
		fakellm.Text("Done."),
	)
	return release
}

// TestWebReplayAndHistoryShowEachAnswerOnce: a tab that connects in the middle of a run gets
// the run replayed; mom's first answer of that run is already in log.jsonl, and the run ends
// (logging the last answer too) before the tab fetches the history. The tab that watched
// from the start, the one that came in the middle and one that comes after the run each
// show every message exactly once; so does a tab whose history comes after a whole run that
// began after its hello, and a tab that saw an answer fail and be retried.
func TestWebReplayAndHistoryShowEachAnswerOnce(t *testing.T) {
	ww := newWebWorld(t, "", "")
	release := scriptMidRun(t, ww)
	ww.run()
	first := ww.openTab()
	if resp, body := ww.post("general", "Ada", "what is the answer?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	first.readUntil("the last answer streamed", func(f wireFrame) bool { return f.Type == "text" && f.Text == "The answer is 42." })

	middle := ww.openTab() // a reload while the model holds the last answer open
	release()
	first.readUntil("the run's end", func(f wireFrame) bool { return f.Type == "run_end" })
	middle.readUntil("the run's end", func(f wireFrame) bool { return f.Type == "run_end" })
	if middle.frames[0].Type != "run_start" {
		t.Errorf("the replay starts with %+v, want the run's start", middle.frames[0])
	}
	texts := []string{"what is the answer?", "Let me look.", "The answer is 42."}
	once(t, "the tab that came in the middle of the run", middle.load("general"), texts...)
	once(t, "the tab that watched the run", first.load("general"), texts...)
	after := ww.openTab()
	once(t, "a tab opened after the run", after.load("general"), texts...)

	// A second run begins after the tab's hello and logs its answer before the tab's history
	// request is answered: the page, which sent that request before the run_start frame came,
	// sees a run its request did not leave out and asks again, leaving it out.
	if resp, body := ww.post("general", "Ada", "and again?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	after.readUntil("the second run's end", func(f wireFrame) bool { return f.Type == "run_end" })
	middle.readUntil("the second run's end", func(f wireFrame) bool { return f.Type == "run_end" })
	if after.runsFrom("general") == nil {
		t.Fatal("the second run's start does not say where it begins in log.jsonl")
	}
	texts = append(texts, "and again?", "Still 42.")
	once(t, "a tab whose history came late", after.load("general"), texts...)
	once(t, "the tab that came in the middle of the run", middle.load("general"), texts...)

	// An answer fails after its text streamed and is retried; the retry writes it anew, and
	// the page shows only that.
	if resp, body := ww.post("general", "Ada", "once more?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	middle.readUntil("the third run's end", func(f wireFrame) bool { return f.Type == "run_end" })
	texts = append(texts, "once more?", "Done.")
	page := middle.load("general")
	once(t, "the tab that saw an answer retried", page, texts...)
	if strings.Contains(page, "Half an answer") {
		t.Errorf("the tab still shows the attempt that failed:\n%s", page)
	}

	// Without the frames, the history alone has everything.
	fresh := ww.openTab()
	once(t, "a tab opened at the end", fresh.load("general"), texts...)
	ww.stop()
}
