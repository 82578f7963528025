package main

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	webadapter "github.com/mom-agent/mom/internal/adapter/web"
	"github.com/mom-agent/mom/internal/chat"
	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// webPlatform runs the conformance suite against the web chat as a browser uses it: people
// post through the HTTP API, and one page follows the WebSocket and draws the channel the way
// app.js does (the history from log.jsonl, then the frames; see frame in
// internal/adapter/web/live.go). A dropped WebSocket is the web chat's connection drop: the
// page reconnects as app.js does and loads the channel again.
type webPlatform struct {
	// ctx ends the page's connections at the test's end; wg waits for them.
	ctx context.Context
	wg  sync.WaitGroup

	browsing sync.Once

	mu sync.Mutex
	// base is the chat's address, set once mom has printed it.
	base string
	conn *websocket.Conn // the page's connection now
	page *webPage        // what the page shows, from its last load
	// loads counts the page's loads; dropAt is loads at the last drop.
	loads, dropAt int
	// downloads are the files mom offered, by path in the channel, as the page downloaded
	// them when it saw them.
	downloads map[string][]byte
	// problems are frames and answers the page could not make sense of.
	problems []string
	// refused are the errors the chat answered the page's presses of card buttons with.
	refused []string
}

// webToken is the chat's access token in the suite's config.
const webToken = "conformance-suite-web-token"

func newWebPlatform(t *testing.T) platform {
	ctx, cancel := context.WithCancel(context.Background())
	wp := &webPlatform{ctx: ctx, downloads: map[string][]byte{}}
	t.Cleanup(func() {
		cancel()
		wp.wg.Wait()
	})
	return wp
}

func (wp *webPlatform) adapter() string {
	return fmt.Sprintf(`"type": "web", "listen": "127.0.0.1:0", "token": %q`, webToken)
}

// cast: people are their display names, which mom knows as web:<name>; everyone talks in
// the channel every web chat has.
func (wp *webPlatform) cast() cast {
	return cast{admin: "web:Ada", user: "web:Bea", group: webadapter.DefaultChannel}
}

// started reads the chat's address from what mom prints and opens the page.
func (wp *webPlatform) started(t testing.TB, p *proc) {
	t.Helper()
	p.waitForErr("Web chat: http://")
	base, _, ok := fakeweb.Announced(p.err.String())
	if !ok {
		t.Fatalf("no web chat address in:\n%s", p.err)
	}
	wp.mu.Lock()
	wp.base = base
	wp.mu.Unlock()
	wp.browsing.Do(func() {
		wp.wg.Add(1)
		go wp.browse()
	})
	apptest.Eventually(t, "the page to load", func() bool {
		wp.mu.Lock()
		defer wp.mu.Unlock()
		return wp.loads > 0
	})
}

// say posts the message as the page does. The web chat has no other way of addressing mom:
// every message does, and a habitual "@mom" in front is dropped.
func (wp *webPlatform) say(t *testing.T, m said) {
	t.Helper()
	var files map[string]string
	if m.file != nil {
		files = map[string]string{m.file.name: string(m.file.content)}
	}
	body, header := fakeweb.MessageForm(strings.TrimPrefix(m.from, "web:"), m.addressed("@mom"), files)
	resp, answer, err := fakeweb.Call(wp.address(), "POST", "/api/channels/"+m.channel+"/messages", webToken, body, header)
	if err != nil {
		t.Fatalf("posting %q: %v", m.text, err)
	}
	if resp.StatusCode != 200 {
		t.Fatalf("posting %q: %s\n%s", m.text, resp.Status, answer)
	}
}

// shown is what the page shows of mom in the channel, top to bottom.
func (wp *webPlatform) shown(channel string) []string {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	if wp.page == nil || channel != wp.page.channel {
		return nil
	}
	return wp.page.shown()
}

// deleted counts the notes mom withdrew from the page.
func (wp *webPlatform) deleted(channel string) int {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	if wp.page == nil || channel != wp.page.channel {
		return 0
	}
	return wp.page.withdrawn
}

// uploads are the files mom offered on the page, as the page downloaded them.
func (wp *webPlatform) uploads(t *testing.T, channel string) []sentFile {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	if wp.page == nil || channel != wp.page.channel {
		return nil
	}
	return wp.page.files
}

// drop cuts the page's WebSocket; the page reconnects and loads the channel again.
func (wp *webPlatform) drop() {
	wp.mu.Lock()
	wp.dropAt = wp.loads
	conn := wp.conn
	wp.mu.Unlock()
	if conn != nil {
		conn.CloseNow()
	}
}

// reconnected reports whether the page has loaded again since the drop.
func (wp *webPlatform) reconnected() bool {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	return wp.loads > wp.dropAt
}

func (wp *webPlatform) lacks(f feature) string {
	switch f {
	case featureChatter:
		return "every message in the web chat addresses mom (the page has no way to talk past it), " +
			"so nothing is said that is logged without a run"
	case featureDMs:
		return "the web chat has no direct messages and no per-person policy: whoever has the " +
			"token talks to mom in shared channels (TestWebEveryRouteNeedsTheToken covers the token)"
	case featureEdits:
		return "the web chat changes nothing in place after a restart: a card lives in the page " +
			"until it is answered, and the page a restarted mom serves starts without it"
	case featureDowntime:
		return "mom serves the web chat itself: while mom is down, nobody can write in it"
	}
	return ""
}

// maxText: the page takes answers of any length, in one piece.
func (wp *webPlatform) maxText() int { return 0 }

func (wp *webPlatform) codeIntact(text string) bool { return balancedFences(text) }

func (wp *webPlatform) violations() []string {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	return wp.problems
}

// address is where the chat is.
func (wp *webPlatform) address() string {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	return wp.base
}

func (wp *webPlatform) problem(format string, args ...any) {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	wp.problems = append(wp.problems, fmt.Sprintf(format, args...))
}

// browse is the page's life: connect, follow the channel until the connection ends, and
// connect again after a pause that grows with each failure, as app.js does (a tenth of its
// pause, to keep the suite quick), until the test ends.
func (wp *webPlatform) browse() {
	defer wp.wg.Done()
	for retry := 0; wp.ctx.Err() == nil; {
		if wp.follow() {
			retry = 0
		}
		retry = min(retry+1, 10)
		select {
		case <-wp.ctx.Done():
		case <-time.After(time.Duration(retry) * 50 * time.Millisecond):
		}
	}
}

// follow opens one connection and reads it until it ends, loading the channel at hello; it
// reports whether the page loaded.
func (wp *webPlatform) follow() bool {
	conn, err := fakeweb.Dial(wp.ctx, wp.address(), webToken)
	if err != nil {
		return false // mom is not there (yet, or any more)
	}
	defer conn.CloseNow()
	wp.mu.Lock()
	wp.conn = conn
	wp.mu.Unlock()
	c := &webConn{wp: wp, conn: conn, base: wp.address(), channel: webadapter.DefaultChannel}
	var loading sync.WaitGroup
	defer loading.Wait()
	for {
		_, b, err := conn.Read(wp.ctx)
		if err != nil {
			loading.Wait()
			return c.loaded()
		}
		var f fakeweb.Frame
		if err := json.Unmarshal(b, &f); err != nil {
			wp.problem("a frame that is not JSON: %s", b)
			continue
		}
		if f.Type == "hello" {
			loading.Add(1)
			go func() {
				defer loading.Done()
				c.load()
			}()
			continue
		}
		c.frame(f)
	}
}

// webConn is one connection of the page: until its load is done, frames wait in queue.
type webConn struct {
	wp      *webPlatform
	conn    *websocket.Conn
	base    string
	channel string
	ready   bool
	queue   []fakeweb.Frame
}

func (c *webConn) loaded() bool {
	c.wp.mu.Lock()
	defer c.wp.mu.Unlock()
	return c.ready
}

// frame draws f, or keeps it for after the load.
func (c *webConn) frame(f fakeweb.Frame) {
	if f.Message != nil && f.Message.Sender.IsBot {
		c.fetch(f.Message)
	}
	c.wp.mu.Lock()
	defer c.wp.mu.Unlock()
	if !c.ready {
		c.queue = append(c.queue, f)
		return
	}
	if c.wp.conn == c.conn {
		c.wp.page.frame(f)
	}
}

// runsFrom is where the runs the connection holds frames of begin in log.jsonl, or "".
func (c *webConn) runsFrom() string {
	c.wp.mu.Lock()
	defer c.wp.mu.Unlock()
	var from *int64
	for _, f := range c.queue {
		if f.Type == "run_start" && f.Channel == c.channel && f.From != nil && (from == nil || *f.From < *from) {
			from = f.From
		}
	}
	if from == nil {
		return ""
	}
	return strconv.FormatInt(*from, 10)
}

// load draws the channel from its history, leaving out the answers of the runs whose frames
// the connection holds, then those frames; as app.js does, it asks again when a run began
// while the history was on its way.
func (c *webConn) load() {
	var msgs []chat.Message
	var cards []fakeweb.Frame // the cards still waiting, which the history ends with
	var drawn []fakeweb.Frame // the history's notes and runs' starts and ends
	for from := c.runsFrom(); ; {
		q := ""
		if from != "" {
			q = "?runsFrom=" + from
		}
		resp, body, err := fakeweb.Call(c.base, "GET", "/api/channels/"+c.channel+"/messages"+q, webToken, nil, nil)
		if err != nil {
			return // mom went away: the page keeps what it shows
		}
		var h struct {
			Messages []chat.Message
			Frames   []fakeweb.Frame
		}
		if err := json.Unmarshal([]byte(body), &h); err != nil || resp.StatusCode != 200 {
			c.wp.problem("the history: %d %v\n%s", resp.StatusCode, err, body)
			return
		}
		msgs = h.Messages
		cards = slices.DeleteFunc(slices.Clone(h.Frames), func(f fakeweb.Frame) bool { return f.Type != "card" })
		drawn = slices.DeleteFunc(h.Frames, func(f fakeweb.Frame) bool {
			return !strings.HasPrefix(f.Type, "notice") && f.Type != "run_start" && f.Type != "run_end"
		})
		if again := c.runsFrom(); again != from {
			from = again
			continue
		}
		break
	}
	for i := range msgs {
		if msgs[i].Sender.IsBot {
			c.fetch(&msgs[i])
		}
	}
	c.wp.mu.Lock()
	defer c.wp.mu.Unlock()
	if c.wp.conn != c.conn {
		return // a newer connection loads the page
	}
	p := newWebPage(c.channel, c.wp)
	for _, m := range msgs {
		p.message(m)
	}
	for _, f := range drawn {
		p.past(f)
	}
	for _, f := range cards {
		p.frame(f)
	}
	for _, f := range c.queue {
		p.frame(f)
	}
	c.queue, c.ready = nil, true
	c.wp.page = p
	c.wp.loads++
}

// fetch downloads the files of one of mom's messages that the page has not downloaded yet,
// as a person clicking them does.
func (c *webConn) fetch(m *chat.Message) {
	for _, att := range m.Attachments {
		c.wp.mu.Lock()
		_, done := c.wp.downloads[att.LocalPath]
		c.wp.mu.Unlock()
		if done || att.LocalPath == "" {
			continue
		}
		name := path.Base(att.LocalPath)
		resp, body, err := fakeweb.Call(c.base, "GET", "/api/channels/"+c.channel+"/files/"+url.PathEscape(name), webToken, nil, nil)
		if err != nil {
			return // mom went away
		}
		if resp.StatusCode != 200 {
			c.wp.problem("downloading %s offered in %s: %d %s", name, m.ID, resp.StatusCode, body)
			continue
		}
		c.wp.mu.Lock()
		c.wp.downloads[att.LocalPath] = []byte(body)
		c.wp.mu.Unlock()
	}
}

// webPage is what a page shows of one channel: mom's messages, notes and runs, in order.
// People's own messages are left out, as the suite asks only what mom shows.
type webPage struct {
	channel string
	wp      *webPlatform
	items   []*pageItem
	drawn   map[string]bool      // message ids drawn
	runs    map[string]*pageItem // run id → its box
	notes   map[string]*pageItem // note id → the note
	cards   map[string]*pageItem // card id → the card
	open    []string             // ids of the cards waiting for a press, oldest first
	active  string               // the run in progress
	going   map[string]bool      // the runs the page shows as started and not ended
	files   []sentFile
	// withdrawn counts the notes mom took back.
	withdrawn int
}

// pageItem is one thing on the page: a message, a note, or a run's box of text blocks, tool
// steps and status lines.
type pageItem struct {
	lines []string
	gone  bool
	// text is the index in lines of the answer being written (-1: none); tools are the lines
	// of the run's tool steps by call id.
	text  int
	tools map[string]int
}

func newWebPage(channel string, wp *webPlatform) *webPage {
	return &webPage{channel: channel, wp: wp, drawn: map[string]bool{}, runs: map[string]*pageItem{}, notes: map[string]*pageItem{},
		cards: map[string]*pageItem{}, going: map[string]bool{}}
}

func (p *webPage) add(lines ...string) *pageItem {
	it := &pageItem{lines: lines, text: -1}
	p.items = append(p.items, it)
	return it
}

func (p *webPage) shown() []string {
	var out []string
	for _, it := range p.items {
		lines := slices.DeleteFunc(slices.Clone(it.lines), func(l string) bool { return l == "" })
		if !it.gone && len(lines) > 0 {
			out = append(out, strings.Join(lines, "\n"))
		}
	}
	return out
}

// past draws a frame of the history: its notes, as app.js does, and which runs are shown
// going. (The suite reads runs' answers from the history's messages.)
func (p *webPage) past(f fakeweb.Frame) {
	switch f.Type {
	case "run_start":
		p.going[f.Run] = true
	case "run_end":
		delete(p.going, f.Run)
	case "notice":
		p.notes[f.ID] = p.add(f.Text)
	case "notice_edit", "notice_gone":
		if n := p.notes[f.ID]; n != nil {
			n.lines, n.gone = []string{f.Text}, f.Type == "notice_gone"
		}
	}
}

// unfinished counts the runs the page shows as still going, the web chat's stale status.
func (wp *webPlatform) unfinished(channel string) int {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	if wp.page == nil || channel != wp.page.channel {
		return 0
	}
	return len(wp.page.going)
}

// frame draws one frame, as app.js's frame does.
func (p *webPage) frame(f fakeweb.Frame) {
	if f.Channel != p.channel {
		return
	}
	switch f.Type {
	case "run_start":
		p.active = f.Run
		p.going[f.Run] = true
	case "run_end":
		p.active = ""
		delete(p.going, f.Run)
	}
	switch {
	case f.Type == "message" && f.Message != nil:
		p.message(*f.Message)
	case strings.HasPrefix(f.Type, "notice"):
		p.note(f)
	case strings.HasPrefix(f.Type, "card"):
		p.card(f)
	case f.Run != "":
		p.runFrame(f)
	}
}

// message draws one of mom's messages once; a file mom attaches while it works goes into the
// run's box.
func (p *webPage) message(m chat.Message) {
	if p.drawn[m.ID] {
		return
	}
	p.drawn[m.ID] = true
	if !m.Sender.IsBot {
		return
	}
	var lines []string
	for _, att := range m.Attachments {
		lines = append(lines, "⬇ "+att.Filename)
		if content, ok := p.wp.downloads[att.LocalPath]; ok {
			p.files = append(p.files, sentFile{name: att.Filename, content: content})
		}
	}
	if run := p.runs[p.active]; run != nil && len(m.Attachments) > 0 {
		run.text = -1
		run.lines = append(run.lines, lines...)
		return
	}
	if m.Text != "" && len(m.Attachments) == 0 {
		lines = append([]string{m.Text}, lines...)
	}
	p.add(lines...)
}

// note draws a note, or changes one the page has: notes are not in the history, so a page
// loaded after one was posted has nothing to change.
func (p *webPage) note(f fakeweb.Frame) {
	n := p.notes[f.ID]
	switch {
	case f.Type == "notice":
		p.notes[f.ID] = p.add(f.Text)
	case n == nil:
	case f.Type == "notice_edit":
		n.lines = []string{f.Text}
	case f.Type == "notice_gone":
		n.gone = true
		p.withdrawn++
	}
}

// card draws a card, or what it says once answered, as app.js's card does.
func (p *webPage) card(f fakeweb.Frame) {
	switch c := p.cards[f.ID]; {
	case f.Type == "card" && c == nil && f.Card != nil:
		p.cards[f.ID] = p.add(f.Card.Title, f.Card.Text)
		p.open = append(p.open, f.ID)
	case f.Type == "card_done" && c != nil:
		c.lines = append(c.lines[:1], f.Text)
		p.open = slices.DeleteFunc(p.open, func(id string) bool { return id == f.ID })
	}
}

// runFrame draws a frame of a run into its box, as app.js's runFrame does.
func (p *webPage) runFrame(f fakeweb.Frame) {
	r := p.runs[f.Run]
	if r == nil {
		if f.Type != "run_start" {
			p.wp.problems = append(p.wp.problems, fmt.Sprintf("a %s frame of run %s, which never started on this connection", f.Type, f.Run))
		}
		r = p.add()
		r.tools = map[string]int{}
		p.runs[f.Run] = r
	}
	switch f.Type {
	case "run_start":
		if f.Event != "" {
			r.lines = append(r.lines, "⏰ event "+f.Event)
		}
	case "message_start":
		// An answer still open here was an attempt that failed: the retry writes it anew.
		if r.text >= 0 {
			r.lines[r.text] = ""
		}
		r.text = -1
	case "text":
		if r.text < 0 {
			r.lines = append(r.lines, "")
			r.text = len(r.lines) - 1
		}
		r.lines[r.text] += f.Text
	case "message_end":
		r.text = -1
	case "tool_start":
		r.text = -1
		label := f.Text
		if label == "" {
			label = f.Name
		}
		r.tools[f.ID] = len(r.lines)
		r.lines = append(r.lines, "→ "+label)
	case "tool_end":
		if i, ok := r.tools[f.ID]; ok {
			mark := " ✓"
			if f.IsError {
				mark = " ✗"
			}
			r.lines[i] += mark
		}
	case "status":
		r.lines = append(r.lines, f.Text)
	case "run_end":
		if f.Silent { // [SILENT]: the page removes the run
			r.gone = true
			p.withdrawn++
			return
		}
		switch f.StopReason {
		case "aborted":
			r.lines = append(r.lines, "Stopped.")
		case "error":
			r.lines = append(r.lines, "error: "+f.Error)
		case "length":
			r.lines = append(r.lines, "(the answer was cut off at the model's output limit)")
		}
		if f.Usage != "" {
			r.lines = append(r.lines, "↳ "+f.Usage)
		}
	}
}

// decide presses the choice's button on the newest card waiting in the channel, as the person
// the page is named for; an answer the chat does not take is a refusal.
func (wp *webPlatform) decide(t *testing.T, channel, from, choice string) {
	t.Helper()
	var id string
	apptest.Eventually(t, "a card waiting for a press", func() bool {
		wp.mu.Lock()
		defer wp.mu.Unlock()
		if wp.page != nil && wp.page.channel == channel && len(wp.page.open) > 0 {
			id = wp.page.open[len(wp.page.open)-1]
		}
		return id != ""
	})
	body := strings.NewReader(fmt.Sprintf(`{"name": %q, "button": %q}`, strings.TrimPrefix(from, "web:"), choice))
	resp, answer, err := fakeweb.Call(wp.address(), "POST", "/api/channels/"+channel+"/cards/"+id, webToken, body,
		http.Header{"Content-Type": {"application/json"}})
	if err != nil {
		t.Fatalf("pressing %s: %v", choice, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e struct {
			Error string `json:"error"`
		}
		_ = json.Unmarshal([]byte(answer), &e)
		wp.mu.Lock()
		wp.refused = append(wp.refused, e.Error)
		wp.mu.Unlock()
	}
}

// refusals are the errors the chat answered presses with.
func (wp *webPlatform) refusals() []string {
	wp.mu.Lock()
	defer wp.mu.Unlock()
	return slices.Clone(wp.refused)
}
