package render

import (
	"cmp"
	"context"
	"log/slog"
	"strconv"
	"strings"
	"sync"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// Options place one run's reply.
type Options struct {
	// At is where the reply goes: its channel, and the thread it is in (At.ThreadOf; "" for
	// the top level). At.Topic names a thread the reply starts, where the platform names them.
	At chat.Place
	// ReplyTo is the message the status message answers on a platform of reply chains
	// (chat.ReplyChains, or the message it quotes with chat.Quotes: the message that asked,
	// in a group); "" for none.
	ReplyTo string
	// Status is the first text of the status message; "_Thinking…_" when empty.
	Status string
	// Log receives platform failures, which never stop the run.
	Log *slog.Logger
	StatusOptions
}

// StatusOptions are about a run's status message across restarts (the hub's run journal).
type StatusOptions struct {
	// Text is the status message's first text; "" for the usual one.
	Text string
	// Reuse is the id of the status message of an earlier attempt at the same run, which mom
	// was killed in the middle of, posted at ReuseAt: where the platform can edit, the run
	// writes there instead of posting a new one. "" posts a new one.
	Reuse   string
	ReuseAt chat.Place
	// Posted, if set, hears where the status message is once it is on the platform (on the
	// worker's goroutine, before anything else is written there), and again if it had to
	// be posted anew.
	Posted func(at chat.Place, id string)
	// Asked, if set, hears where the question of a request for approval is once it is on
	// the platform, so that a restart can settle it (question.go).
	Asked func(request string, at chat.Place, id string)
}

// firstStatus is the status message's first text, in markdown: StatusOptions.Text, else
// Status, else "_Thinking…_".
func (o Options) firstStatus() string { return cmp.Or(o.Text, o.Status, "_Thinking…_") }

// maxStatusLines is how many progress lines the status message keeps; older ones are
// summarized so that a run with hundreds of tool calls still fits one message.
const maxStatusLines = 12

// Progress shows one run the way the original mom did: a status message that starts as
// "_Thinking…_", gains a `_→ label_` line per tool call, streams the answer as it arrives and is
// finally replaced by it; tool details, errors and a usage summary go into the thread under it.
// Platform calls happen on a goroutine of its own, in order, so a slow platform never holds up
// the run; Close waits for the last of them.
type Progress struct {
	s         chat.Surface
	d         chat.Dialect
	verbosity Verbosity
	opts      Options
	log       *slog.Logger

	wake chan struct{} // a buffered nudge for the worker
	done chan struct{} // closed when the worker has written the final state
	stop context.CancelFunc

	mu       sync.Mutex
	lines    []string  // status lines, markdown
	dropped  int       // status lines summarized away
	live     string    // the model's text so far in the current message
	answer   string    // the text of the last finished model message
	pending  []string  // thread posts waiting, markdown
	asks     []askStep // questions to show or settle, in order
	dirty    bool      // the status message needs an edit
	end      *run.Event
	usedTool bool
	digest   []string // a line per finished tool call, markdown, where details are a digest
}

// NewProgress starts showing a run on s, written in d. ctx bounds the platform calls; Close
// may outlive it.
func NewProgress(ctx context.Context, s chat.Surface, d chat.Dialect, opts Options) *Progress {
	d = fill(d)
	if d.MaxText <= 0 {
		d.MaxText = 4000 // a status message that keeps growing needs a limit to be cut at
	}
	verbosity := Verbosity(d.Verbosity)
	if verbosity == "" {
		verbosity = Normal
	}
	opts.Status = opts.firstStatus()
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	wctx, stop := context.WithCancel(context.WithoutCancel(ctx))
	p := &Progress{s: s, d: d, verbosity: verbosity, opts: opts, log: log, stop: stop,
		wake: make(chan struct{}, 1), done: make(chan struct{})}
	go p.work(wctx)
	return p
}

// Event takes the run's next event (run.Sink). It never blocks on the platform.
func (p *Progress) Event(ev run.Event) {
	p.mu.Lock()
	p.apply(ev)
	p.mu.Unlock()
	p.nudge()
}

// Close waits until the final state is on the platform, or ctx ends.
func (p *Progress) Close(ctx context.Context) error {
	p.mu.Lock()
	if p.end == nil { // a run always ends with agent_end; this is a safety net
		p.end = &run.Event{Type: run.AgentEnd, StopReason: llm.StopEnd}
	}
	p.mu.Unlock()
	p.nudge()
	select {
	case <-p.done:
		return nil
	case <-ctx.Done():
		p.stop()
		<-p.done
		return ctx.Err()
	}
}

func (p *Progress) nudge() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// apply updates the state for one event. p.mu is held.
func (p *Progress) apply(ev run.Event) {
	v := p.verbosity
	switch ev.Type {
	case run.MessageStart:
		p.live = ""
	case run.MessageUpdate:
		if ev.DeltaKind == "text" {
			p.live += ev.Delta
			p.dirty = true
		}
	case run.MessageEnd:
		m := ev.Message
		if m == nil || m.Role != llm.RoleAssistant {
			return
		}
		p.live = ""
		text := strings.TrimSpace(m.Text())
		if v == Verbose {
			if th := thinkingOf(m); th != "" {
				p.detail(quote("_Thinking:_\n" + th))
			}
		}
		if len(m.ToolCalls()) > 0 && text != "" && v != Quiet {
			// Words before a tool call ("let me check the logs") are progress, not the answer.
			p.addLine(text)
		}
		if m.StopReason != llm.StopError && m.StopReason != llm.StopAborted || text != "" {
			p.answer = text
		}
		p.dirty = true
	case run.ToolStart:
		p.usedTool = true
		if v != Quiet {
			p.addLine("_→ " + oneLine(ev.Label, 200) + "_")
		}
	case run.ToolEnd:
		if ev.IsError && v != Quiet {
			p.addLine("_✗ " + oneLine(ev.Output, 200) + "_")
		}
		switch {
		case v == Quiet:
		case p.d.Threads == chat.Quotes:
			p.digest = append(p.digest, digestLine(ev))
		default:
			p.detail(toolDetail(ev, p.d.MaxText))
		}
	case run.ApprovalStart:
		if ev.Approval != nil {
			p.asks = append(p.asks, askStep{req: *ev.Approval})
			p.addLine(waitingLine)
		}
	case run.ApprovalEnd:
		if ev.Approval != nil {
			p.asks = append(p.asks, askStep{req: *ev.Approval, settle: true})
			if n := len(p.lines); n > 0 && p.lines[n-1] == waitingLine {
				p.lines = p.lines[:n-1]
			}
			p.addLine("_" + ev.Approval.Outcome + "_")
		}
	case run.RetryStart:
		if v != Quiet {
			p.addLine("_Retrying (" + strconv.Itoa(ev.Attempt) + "/" + strconv.Itoa(ev.MaxAttempts) + ")…_")
		}
	case run.CompactionStart:
		p.addLine("_Compacting context…_")
	case run.CompactionEnd:
		if line := CompactionLine(ev); line != "" {
			p.addLine("_" + line + "_")
		}
	case run.AgentEnd:
		e := ev
		p.end = &e
	}
}

// addLine adds a status line, folding the oldest into a count when there are too many.
func (p *Progress) addLine(md string) {
	p.lines = append(p.lines, md)
	if len(p.lines) > maxStatusLines {
		p.dropped += len(p.lines) - maxStatusLines
		p.lines = append(p.lines[:0], p.lines[len(p.lines)-maxStatusLines:]...)
	}
	p.dirty = true
}

// detail queues a post for the thread under the status message.
func (p *Progress) detail(md string) {
	if p.detailsShown() {
		p.pending = append(p.pending, md)
	}
}

// detailsShown says whether details have a place: a thread of their own under a top-level
// reply. A reply inside someone's thread keeps its details out of the conversation, unless
// people asked for everything. A platform of quotes has no threads: its details are a digest
// after the answer (see worker.digest).
func (p *Progress) detailsShown() bool {
	if p.d.Threads == chat.NoThreads || p.d.Threads == chat.Quotes {
		return false
	}
	return p.opts.At.ThreadOf == "" || p.verbosity == Verbose
}

// statusText is the status message as it stands, markdown.
func (p *Progress) statusText() string {
	var b strings.Builder
	b.WriteString(p.opts.Status)
	if p.dropped > 0 {
		b.WriteString("\n_… " + strconv.Itoa(p.dropped) + " earlier steps_")
	}
	for _, l := range p.lines {
		b.WriteString("\n" + l)
	}
	if live := strings.TrimSpace(p.live); live != "" {
		b.WriteString("\n\n" + live)
	}
	return b.String()
}
