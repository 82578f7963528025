package web

import (
	"cmp"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// historyDefault and historyMax bound how many messages one history request returns.
const (
	historyDefault = 200
	historyMax     = 2000
)

// failurePrefix starts the line the agent logs for a run that failed (agent.logFailure): the
// page shows the failure as the run's error card, so the history does not show it again as
// an answer.
const failurePrefix = "Sorry, something went wrong: "

// history answers GET /api/channels/{channel}/messages?limit=N&runsFrom=OFFSET with the
// channel's last N messages from log.jsonl, oldest first ("messages", as logged), and the
// same stretch of the chat as the frames the page draws it from ("frames"): people's
// messages, mom's notes, and each run whole, its answers (from log.jsonl) among its steps,
// retries, usage and outcome (from activity.jsonl). The page draws live frames and these with
// the same code, so a reload shows what the live page showed.
//
// With runsFrom (the least "from" of the runs whose frames the page holds; see frame), the
// runs that began at or after that offset are left out, and so are mom's answers logged
// there: the page draws them from the frames it has.
func (a *Adapter) history(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	q := r.URL.Query()
	limit := historyDefault
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > historyMax {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("limit must be a number from 1 to %d", historyMax))
			return
		}
		limit = n
	}
	from := int64(-1)
	if s := q.Get("runsFrom"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < 0 {
			writeError(w, http.StatusBadRequest, fmt.Sprintf("runsFrom must be an offset in log.jsonl (a number from 0 up), not %q", s))
			return
		}
		from = n
	}
	msgs, frames, err := a.timeline(ch, limit, from, a.md.html)
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("could not read the history of %s: %v", ch.Key(), err))
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"channel": ch.ID(), "messages": msgs, "frames": frames, "running": a.live.running(ch.ID())})
}

// timeline reads the channel's last limit messages and the activity among them, and returns
// the messages (without the answers of runs at or after from, when from ≥ 0) and the frames
// that draw them, their texts rendered by html (nil: not rendered).
func (a *Adapter) timeline(ch *store.ChannelDir, limit int, from int64, html func(string) string) ([]chat.Message, []frame, error) {
	msgs, pos, err := ch.TailLog(limit)
	if err != nil {
		return nil, nil, err
	}
	since := int64(0)
	if len(msgs) == limit {
		since = pos[0].Start
	}
	acts, err := readActivity(ch, since)
	if err != nil {
		return nil, nil, err
	}
	left := func(i int) bool { // an answer the page draws from its frames
		return from >= 0 && pos[i].Start >= from && msgs[i].Sender.IsBot && len(msgs[i].Attachments) == 0
	}
	kept := []chat.Message{}
	for i, m := range msgs {
		if !left(i) {
			kept = append(kept, m)
		}
	}
	skip := map[string]bool{} // runs the page draws from its frames
	for _, l := range acts {
		if l.Type == "run_start" && from >= 0 && l.At >= from {
			skip[l.Run] = true
		}
	}
	slices.SortStableFunc(acts, func(x, y activityLine) int { return cmp.Compare(x.At, y.At) })

	if html == nil {
		html = func(string) string { return "" }
	}
	tb := timelineBuilder{html: html, channel: ch.ID(), live: a.live.current(ch.ID())}
	j := 0
	for i, m := range msgs {
		for ; j < len(acts) && acts[j].At <= pos[i].Start; j++ {
			if !skip[acts[j].Run] || acts[j].Run == "" {
				tb.activity(acts[j])
			}
		}
		if !left(i) {
			tb.message(m)
		}
	}
	for ; j < len(acts); j++ {
		if !skip[acts[j].Run] || acts[j].Run == "" {
			tb.activity(acts[j])
		}
	}
	tb.endRun()
	frames := append([]frame{}, tb.frames...) // a list, even an empty one
	return kept, append(frames, a.openCards(ch.ID())...), nil
}

// timelineBuilder turns messages and activity, in log order, into the frames of a page.
type timelineBuilder struct {
	html    func(string) string
	channel string
	frames  []frame
	run     string // the run being drawn, "" between runs
	live    string // the channel's run in progress, which has not ended yet
}

// activity adds a recorded frame, starting its run's box when it is the first of the run the
// history holds (its start may be older than the page of history).
func (tb *timelineBuilder) activity(l activityLine) {
	f := l.frame
	f.Channel = tb.channel
	if f.Type == "run_start" {
		ts := l.TS
		f.TS = &ts
	}
	if f.Run != "" && f.Run != tb.run {
		tb.endRun()
		tb.run = f.Run
		if f.Type != "run_start" {
			tb.frames = append(tb.frames, frame{Type: "run_start", Channel: tb.channel, Run: f.Run})
		}
	}
	if f.Type == "run_end" {
		tb.dropFailure(f)
		tb.run = ""
	}
	tb.frames = append(tb.frames, f)
}

// endRun closes a run whose end is not recorded: mom stopped in the middle of it.
func (tb *timelineBuilder) endRun() {
	if tb.run == "" || tb.run == tb.live {
		tb.run = ""
		return
	}
	tb.frames = append(tb.frames, frame{Type: "run_end", Channel: tb.channel, Run: tb.run, StopReason: "interrupted"})
	tb.run = ""
}

// message adds a log line: an answer of the run being drawn becomes its text, anything else
// is a message of its own (a file mom attached during a run joins the run on the page).
func (tb *timelineBuilder) message(m chat.Message) {
	if tb.run != "" && m.Sender.IsBot && len(m.Attachments) == 0 {
		tb.frames = append(tb.frames,
			frame{Type: "message_start", Channel: tb.channel, Run: tb.run},
			frame{Type: "text", Channel: tb.channel, Run: tb.run, Text: m.Text, HTML: tb.html(m.Text), TS: &m.TS},
			frame{Type: "message_end", Channel: tb.channel, Run: tb.run})
		return
	}
	tb.frames = append(tb.frames, frame{Type: "message", Channel: tb.channel, Message: &m, HTML: tb.html(m.Text)})
}

// dropFailure removes the run's last answer when it is the line the agent logged for the
// failure end describes, which the page shows as the run's error card instead. Only the
// answer's message_end and status lines (the retries') may come after it.
func (tb *timelineBuilder) dropFailure(end frame) {
	if end.StopReason != "error" {
		return
	}
	for i := len(tb.frames) - 1; i > 0; i-- {
		f := tb.frames[i]
		if f.Run != end.Run || (f.Type != "text" && f.Type != "message_end" && f.Type != "status") {
			return
		}
		if f.Type != "text" {
			continue
		}
		rest, ok := strings.CutPrefix(f.Text, failurePrefix)
		if !ok || (rest != strings.TrimSpace(end.Error) && strings.TrimSpace(end.Error) != "") {
			return
		}
		from, to := i, i+1
		if tb.frames[i-1].Type == "message_start" {
			from--
		}
		if to < len(tb.frames) && tb.frames[to].Type == "message_end" {
			to++
		}
		tb.frames = append(tb.frames[:from], tb.frames[to:]...)
		return
	}
}
