package fakeweb

import (
	"context"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/mom-agent/mom/internal/chat"
)

// hangGuard bounds how long a tab waits for a frame before it fails the test. It guards
// against hangs; no test asserts on timing.
const hangGuard = 60 * time.Second

// Frame is a WebSocket frame as the page reads it (see frame in internal/adapter/web/live.go).
type Frame struct {
	Type       string        `json:"type"`
	Channel    string        `json:"channel"`
	Run        string        `json:"run"`
	ID         string        `json:"id"`
	Event      string        `json:"event"`
	Text       string        `json:"text"`
	Name       string        `json:"name"`
	IsError    bool          `json:"isError"`
	StopReason string        `json:"stopReason"`
	Error      string        `json:"error"`
	Usage      string        `json:"usage"`
	Silent     bool          `json:"silent"`
	From       *int64        `json:"from"`
	Message    *chat.Message `json:"message"`
	// Card is a card's content ("card" frames): what it asks and its buttons.
	Card *Card `json:"card"`
}

// Card is a card the chat shows: a title, text, an image (a data: URL), and the buttons that
// answer it.
type Card struct {
	Title   string `json:"title"`
	Text    string `json:"text"`
	Image   string `json:"image"`
	Buttons []struct {
		ID    string `json:"id"`
		Label string `json:"label"`
	} `json:"buttons"`
}

// Tab is one browser tab's WebSocket and the frames it has read since it connected. Its
// methods fail the test when the chat does not answer as the page expects.
type Tab struct {
	t    testing.TB
	b    *Browser
	conn *websocket.Conn
	// Frames are the frames read so far, the replay of the runs in progress and hello
	// included.
	Frames []Frame
}

// OpenTab connects a WebSocket to the web chat, as a page does when it opens, and reads the
// replay of the runs in progress up to hello. The connection closes at the test's end.
func (b *Browser) OpenTab() *Tab {
	t := b.t
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	conn, err := Dial(ctx, b.base, b.token)
	if err != nil {
		t.Fatalf("WebSocket: %v", err)
	}
	t.Cleanup(func() { conn.CloseNow() })
	tb := &Tab{t: t, b: b, conn: conn}
	tb.ReadUntil("hello", func(f Frame) bool { return f.Type == "hello" })
	return tb
}

// Read reads the next frame and keeps it.
func (tb *Tab) Read() Frame {
	tb.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	_, b, err := tb.conn.Read(ctx)
	if err != nil {
		printed := ""
		if tb.b.log != nil {
			printed = "\nstderr:\n" + tb.b.log()
		}
		tb.t.Fatalf("reading a frame after %d: %v%s", len(tb.Frames), err, printed)
	}
	var f Frame
	if err := json.Unmarshal(b, &f); err != nil {
		tb.t.Fatalf("frame %s: %v", b, err)
	}
	tb.Frames = append(tb.Frames, f)
	return f
}

// ReadUntil reads (and keeps) frames up to the first one for which done holds; what names
// that frame.
func (tb *Tab) ReadUntil(what string, done func(Frame) bool) {
	tb.t.Helper()
	for !done(tb.Read()) {
	}
}

// RunsFrom is where the page's runs of channel begin in log.jsonl: the least "from" of the
// run_start frames it holds, or nil when it holds none.
func (tb *Tab) RunsFrom(channel string) *int64 {
	var from *int64
	for _, f := range tb.Frames {
		if f.Type == "run_start" && f.Channel == channel && f.From != nil && (from == nil || *f.From < *from) {
			from = f.From
		}
	}
	return from
}

// History fetches channel's history as the page does, leaving out what its runs' frames
// draw: the runs that begin at from in log.jsonl and after (nil: none).
func (tb *Tab) History(channel string, from *int64) []chat.Message {
	tb.t.Helper()
	path := "/api/channels/" + channel + "/messages"
	if from != nil {
		path += "?runsFrom=" + strconv.FormatInt(*from, 10)
	}
	resp, body := tb.b.Request("GET", path, tb.b.token, nil, nil)
	var h struct{ Messages []chat.Message }
	if err := json.Unmarshal([]byte(body), &h); err != nil || resp.StatusCode != 200 {
		tb.t.Fatalf("history: %d %v\n%s", resp.StatusCode, err, body)
	}
	return h.Messages
}

// Page is the text the page shows of channel, built as app.js builds it: the history, then
// the frames it queued meanwhile: messages it does not have yet (by id), and every run drawn
// from its frames, one block per answer. An answer still open when another begins was an
// attempt that failed, and goes. A frame of a run that never started on this connection
// fails the test.
func (tb *Tab) Page(channel string, history []chat.Message) string {
	tb.t.Helper()
	var blocks []*string
	shown := map[string]bool{}
	for _, m := range history {
		shown[m.ID] = true
		blocks = append(blocks, &m.Text)
	}
	started := map[string]bool{}
	open := map[string]*string{} // run → its answer being written
	for _, f := range tb.Frames {
		if f.Channel != channel {
			continue
		}
		if f.Run != "" && f.Type != "run_start" && !started[f.Run] {
			tb.t.Errorf("a %s frame of run %s, which never started on this connection", f.Type, f.Run)
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

// Load is what the page shows once it has loaded channel: the history fetched with what its
// frames cover left out, then its queued frames.
func (tb *Tab) Load(channel string) string {
	tb.t.Helper()
	return tb.Page(channel, tb.History(channel, tb.RunsFrom(channel)))
}
