package web

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/mom-agent/mom/internal/chat"
)

// Limits of the live connection.
const (
	// clientQueue is how many frames may wait for a slow browser; past that it is
	// disconnected, reconnects and reloads the history.
	clientQueue = 1024
	// maxReplay is how many frames of a run in progress are kept for browsers that connect
	// in the middle of it (runs of text deltas are merged into one frame).
	maxReplay = 2000
	// writeTimeout bounds one frame's write; pingEvery finds browsers that vanished.
	writeTimeout = 10 * time.Second
	pingEvery    = 30 * time.Second
)

// frame is one thing the server tells every browser over the WebSocket. Type says which
// fields are set:
//
//	hello                                             replay done: load the history
//	channel       channel                             a channel was created
//	events                                            workspace/events changed: reload the list
//	message       channel, message, html              a message in log.jsonl (a person's, or mom's file)
//	notice        channel, id, text, html             a short note from mom (busy, stopping, …)
//	notice_edit   channel, id, text, html             the note's new text
//	notice_gone   channel, id                         the note was withdrawn
//	run_start     channel, run, trigger, event, from  mom starts working (from: see below)
//	message_start channel, run                        an answer begins (one still open failed)
//	text          channel, run, text, html            the answer's next piece, and the answer so far as HTML
//	message_end   channel, run                        the end of one answer of the run
//	tool_start    channel, run, id, name, text (the label), args
//	tool_end      channel, run, id, output, isError, ms
//	status        channel, run, id, text, detail      retries and compaction; a later one with the same id replaces it (or, without text, removes it)
//	run_end       channel, run, stopReason, error, summary, retries, usage, silent (the page removes the run)
//	card          channel, id, card                   a card with buttons (card.go)
//	card_update   channel, id, card                   the card's new content, drawn in its place (a renewed QR code)
//	card_done     channel, id, text                   the card was answered: its buttons go, text says how
//
// html is the text rendered as markdown and sanitized (markdown.go): the page inserts it as
// it is and renders no markdown of its own. text frames come at most every textEvery or so,
// each with the whole answer's HTML.
// A connection starts with the frames of the runs in progress (replayed, from their
// run_start), then hello, then everything live, in order. A page shows the channel's
// history from log.jsonl and, on top, the frames it got; a reload, a channel switch and a
// reconnect are all a new connection and a new history. The two overlap in one place only:
// the agent logs each of mom's answers while its run goes on, so an answer of a run the page
// draws from frames can also be in the history (the run was in progress at the hello, or
// began after it and logged before the history was read). run_start's from is the log's size
// when the run began; every answer logged at or after it belongs to that run or a later one,
// and the page has the frames of both. So the page asks for the history with runsFrom, the
// least from of the runs it holds frames of, and the history leaves those answers out: each
// shows once, from the frames. Nothing else is shown twice: a frame goes into either the
// replay or the live stream, never both (both happen under live.mu), and messages (people's,
// mom's files) carry their log id, which the page shows once.
type frame struct {
	Type    string `json:"type"`
	Channel string `json:"channel,omitempty"`
	Run     string `json:"run,omitempty"`
	ID      string `json:"id,omitempty"`
	Trigger string `json:"trigger,omitempty"`
	// WakeUp is the wake-up file that started the run ("event" on the wire).
	WakeUp     string        `json:"event,omitempty"`
	Text       string        `json:"text,omitempty"`
	Name       string        `json:"name,omitempty"`
	Args       string        `json:"args,omitempty"`
	Output     string        `json:"output,omitempty"`
	IsError    bool          `json:"isError,omitempty"`
	Ms         int64         `json:"ms,omitempty"`
	StopReason string        `json:"stopReason,omitempty"`
	Error      string        `json:"error,omitempty"`
	Usage      string        `json:"usage,omitempty"`
	From       *int64        `json:"from,omitempty"`
	Silent     bool          `json:"silent,omitempty"`
	Message    *chat.Message `json:"message,omitempty"`
	HTML       string        `json:"html,omitempty"`
	Detail     string        `json:"detail,omitempty"`
	Summary    string        `json:"summary,omitempty"`
	Retries    int           `json:"retries,omitempty"`
	Card       *card         `json:"card,omitempty"`
	// TS is when an answer drawn from the history was logged.
	TS *time.Time `json:"ts,omitempty"`
}

// live sends frames to every connected browser and remembers the runs in progress, so a
// browser that connects (or reloads) in the middle of one sees it whole.
type live struct {
	shown *chat.Dedup // message ids already shown

	mu      sync.Mutex
	clients map[*client]struct{}
	runs    map[string][]replayed // channel → frames of its run in progress
	closed  bool
}

// replayed is a kept frame; a run of text deltas is kept as one frame whose text grows in a
// builder, so a long answer costs no quadratic copying.
type replayed struct {
	f    frame
	text *strings.Builder
}

// frame returns the frame to send, with its merged text.
func (r replayed) frame() frame {
	f := r.f
	if r.text != nil {
		f.Text = r.text.String()
	}
	return f
}

// client is one browser's connection.
type client struct {
	send chan []byte
	gone chan struct{} // closed when the server drops the client
}

func newLive() *live {
	return &live{shown: chat.NewDedup(4096), clients: make(map[*client]struct{}), runs: make(map[string][]replayed)}
}

// broadcast sends f to every browser.
func (l *live) broadcast(f frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.broadcastLocked(f)
}

// broadcastOnce sends f unless a frame with the same key was sent before. The check and the
// sending are one step, so whoever loses the race cannot send a later frame ahead of it.
func (l *live) broadcastOnce(key string, f frame) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.shown.Claim(key, func() {}) == chat.ClaimNew {
		l.broadcastLocked(f)
	}
	l.shown.Done(key)
}

func (l *live) broadcastLocked(f frame) {
	b, err := json.Marshal(f)
	if err != nil {
		return
	}
	l.recordLocked(f)
	for c := range l.clients {
		select {
		case c.send <- b:
		default:
			l.dropLocked(c) // too slow: it reconnects and reloads
		}
	}
}

// recordLocked keeps the frames of runs in progress for replay.
func (l *live) recordLocked(f frame) {
	switch f.Type {
	case "run_start":
		l.runs[f.Channel] = []replayed{{f: f}}
		return
	case "run_end":
		delete(l.runs, f.Channel)
		return
	}
	run := l.runs[f.Channel]
	if len(run) == 0 || run[0].f.Run != f.Run || f.Run == "" {
		return
	}
	if last := &run[len(run)-1]; f.Type == "text" && last.text != nil {
		last.text.WriteString(f.Text)
		last.f.HTML = f.HTML
		return
	}
	if len(run) >= maxReplay {
		return
	}
	r := replayed{f: f}
	if f.Type == "text" {
		r.text = &strings.Builder{}
		r.text.WriteString(f.Text)
	}
	l.runs[f.Channel] = append(run, r)
}

// current returns the id of channel's run in progress, or "".
func (l *live) current(channel string) string {
	l.mu.Lock()
	defer l.mu.Unlock()
	if run := l.runs[channel]; len(run) > 0 {
		return run[0].f.Run
	}
	return ""
}

// running reports whether a run is in progress in channel.
func (l *live) running(channel string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.runs[channel]) > 0
}

// subscribe adds a browser and queues the runs in progress, then its greeting: the page
// loads the history on hello, knowing which runs it draws from frames.
func (l *live) subscribe() *client {
	l.mu.Lock()
	defer l.mu.Unlock()
	var replay [][]byte
	for _, run := range l.runs {
		// A run that outgrew its replay lacks frames, perhaps answers: without its from,
		// the page takes those answers from the history.
		cut := len(run) >= maxReplay
		for i, r := range run {
			f := r.frame()
			if i == 0 && cut {
				f.From = nil
			}
			if b, err := json.Marshal(f); err == nil {
				replay = append(replay, b)
			}
		}
	}
	c := &client{send: make(chan []byte, clientQueue+len(replay)+1), gone: make(chan struct{})}
	for _, b := range replay {
		c.send <- b
	}
	c.send <- []byte(`{"type":"hello"}`)
	if l.closed {
		close(c.gone)
		return c
	}
	l.clients[c] = struct{}{}
	return c
}

// unsubscribe forgets a browser that left.
func (l *live) unsubscribe(c *client) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, ok := l.clients[c]; ok {
		delete(l.clients, c)
	}
}

func (l *live) dropLocked(c *client) {
	delete(l.clients, c)
	close(c.gone)
}

// close disconnects every browser; later ones are turned away.
func (l *live) close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	for c := range l.clients {
		l.dropLocked(c)
	}
}

// showMessage sends a message to the browsers once, whoever shows it first: the request
// that logged it, or the run it triggered, which must not appear before it.
func (a *Adapter) showMessage(m chat.Message) {
	a.live.broadcastOnce(m.ChannelID+"/"+m.ID, a.messageFrame(m))
}

// messageFrame is the frame that shows m, with its text rendered.
func (a *Adapter) messageFrame(m chat.Message) frame {
	return frame{Type: "message", Channel: m.ChannelID, Message: &m, HTML: a.md.html(m.Text)}
}

// serveWS answers GET /ws: the live connection. The browser only listens; it acts through
// the HTTP API. coder/websocket refuses an Origin other than the chat's own host.
func (a *Adapter) serveWS(w http.ResponseWriter, r *http.Request) {
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return // Accept has answered
	}
	defer conn.CloseNow()
	c := a.live.subscribe()
	defer a.live.unsubscribe(c)
	ctx := conn.CloseRead(context.WithoutCancel(r.Context()))
	ping := time.NewTicker(pingEvery)
	defer ping.Stop()
	for {
		select {
		case b := <-c.send:
			wctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Write(wctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				return
			}
		case <-ping.C:
			pctx, cancel := context.WithTimeout(ctx, writeTimeout)
			err := conn.Ping(pctx)
			cancel()
			if err != nil {
				return
			}
		case <-c.gone:
			conn.Close(websocket.StatusGoingAway, "reconnect")
			return
		case <-ctx.Done():
			return
		}
	}
}
