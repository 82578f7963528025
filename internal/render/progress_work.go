package render

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// The platform side of a Progress: one goroutine that owns every platform call of the run.

// work posts the status message, then follows the state until the run has ended and its final
// state is written.
func (p *Progress) work(ctx context.Context) {
	defer close(p.done)
	w := &worker{p: p, mainAt: p.top()}
	var lastEdit time.Time
	if w.start(ctx) {
		lastEdit = time.Now() // the earlier attempt's message was just edited: pace from there
	}
	var timer *time.Timer
	var tick <-chan time.Time
	for {
		select {
		case <-p.wake:
		case <-tick:
			tick = nil
		case <-ctx.Done():
			return
		}
		p.mu.Lock()
		posts, asks := p.pending, p.asks
		p.pending, p.asks = nil, nil
		end := p.end
		dirty := p.dirty
		wait := p.d.EditEvery - time.Since(lastEdit)
		status := ""
		if end == nil && dirty && wait <= 0 {
			status = p.statusText() // built only when an edit is due, not per streamed word
			p.dirty = false
		}
		p.mu.Unlock()

		for _, md := range posts {
			w.postDetail(ctx, md)
		}
		for _, step := range asks {
			w.ask(ctx, step)
		}
		if end != nil {
			w.finish(ctx, *end)
			return
		}
		if !dirty || !p.d.Edit {
			continue
		}
		if wait > 0 {
			if tick == nil {
				if timer == nil {
					timer = time.NewTimer(wait)
				} else {
					timer.Reset(wait)
				}
				tick = timer.C
			}
			continue
		}
		w.update(ctx, p.preview(status))
		lastEdit = time.Now()
	}
}

// worker holds what only the worker goroutine touches.
type worker struct {
	p *Progress
	// main is the status message's id ("" when posting it failed), posted at mainAt.
	main   string
	mainAt chat.Place
	// thread holds the detail posts, for [SILENT].
	thread []posted
	// questions are the requests for approval the worker posted (question.go).
	questions []asked
}

// posted is a message the worker posted, and where, so that it can be deleted.
type posted struct {
	at chat.Place
	id string
}

func (p *Progress) format(md string) string { return p.d.Format(md) }

// top is where the reply's own messages go: the thread it is in, or, on a platform of reply
// chains, an answer to the message that asked.
func (p *Progress) top() chat.Place { return p.opts.top() }

// top is where a reply placed by o posts its own messages (Progress.top).
func (o Options) top() chat.Place {
	at := o.At
	at.ThreadOf = cmp.Or(at.ThreadOf, o.ReplyTo)
	return at
}

// under is the thread of the message id, in the reply's channel.
func (p *Progress) under(id string) chat.Place {
	at := p.opts.At
	at.ThreadOf = id
	return at
}

// preview is the status message for an edit: cut to the platform's limit with a mark.
func (p *Progress) preview(md string) string {
	parts := p.d.Split(p.format(md), p.d.MaxText-2)
	if len(parts) <= 1 {
		return strings.Join(parts, "")
	}
	return parts[0] + " …"
}

// start shows the status message: the earlier attempt's, edited, when there is one and the
// platform allows it; a new one otherwise. It reports whether it edited.
func (w *worker) start(ctx context.Context) bool {
	p := w.p
	text := p.format(p.opts.Status)
	if o := p.opts.StatusOptions; o.Reuse != "" && p.d.Edit {
		err := p.s.Edit(ctx, o.ReuseAt, o.Reuse, text)
		if err == nil {
			w.main, w.mainAt = o.Reuse, o.ReuseAt
			w.posted()
			return true
		}
		p.log.Warn("could not reuse the status message of the interrupted run; posting a new one", "err", err)
	}
	w.main = w.post(ctx, w.mainAt, text)
	w.posted()
	return false
}

// posted tells Options.Posted where the status message is.
func (w *worker) posted() {
	if w.main != "" && w.p.opts.Posted != nil {
		w.p.opts.Posted(w.mainAt, w.main)
	}
}

func (w *worker) post(ctx context.Context, at chat.Place, text string) string {
	id, err := w.p.s.Post(ctx, at, text)
	if err != nil {
		w.p.log.Warn("could not post a message", "err", err)
		return ""
	}
	return id
}

func (w *worker) update(ctx context.Context, text string) {
	if w.main == "" {
		w.mainAt = w.p.top()
		w.main = w.post(ctx, w.mainAt, text)
		w.posted()
		return
	}
	if err := w.p.s.Edit(ctx, w.mainAt, w.main, text); err != nil {
		w.p.log.Warn("could not update the status message", "err", err)
	}
}

// detailParent is where details go: the thread under the status message, or the thread the
// reply itself is in.
func (w *worker) detailParent() string {
	if w.p.opts.At.ThreadOf != "" {
		return w.p.opts.At.ThreadOf
	}
	return w.main
}

// postDetail posts markdown into the details thread, split at the platform's limit.
func (w *worker) postDetail(ctx context.Context, md string) {
	parent := w.detailParent()
	if parent == "" {
		return // without a status message there is no thread to put details in
	}
	at := w.p.under(parent)
	for _, part := range w.p.d.Split(w.p.format(md), w.p.d.MaxText) {
		if id := w.post(ctx, at, part); id != "" {
			w.thread = append(w.thread, posted{at, id})
		}
	}
}

// finish writes the run's final state: the answer in place of the status message (continued
// in the thread when it is too long), how the run ended, and the usage summary.
func (w *worker) finish(ctx context.Context, end run.Event) {
	p := w.p
	p.mu.Lock()
	answer, usedTool := p.answer, p.usedTool
	p.mu.Unlock()

	if chat.IsSilent(answer) && end.StopReason != llm.StopError {
		w.silence(ctx)
		return
	}
	md, problem := finalText(answer, usedTool, end)
	// The error in full goes where threads are; on a platform of quotes the answer's note
	// says what went wrong, and a digest stays short.
	if problem != "" && p.d.Threads != chat.NoThreads && p.d.Threads != chat.Quotes {
		w.postDetail(ctx, problem)
	}
	w.answer(ctx, md)
	if p.verbosity != Quiet && p.detailsShown() {
		if u := UsageLine(end); u != "" {
			w.postDetail(ctx, "_"+u+"_")
		}
	}
	if p.verbosity != Quiet && p.d.Threads == chat.Quotes {
		w.digest(ctx, end)
	}
}

// digest posts a run's details on a platform of quotes, after the answer and in the channel:
// a line per tool call and the usage, in one message (split only should it outgrow one).
func (w *worker) digest(ctx context.Context, end run.Event) {
	p := w.p
	p.mu.Lock()
	lines := slices.Clone(p.digest)
	p.mu.Unlock()
	if u := UsageLine(end); u != "" {
		lines = append(lines, "_"+u+"_")
	}
	if len(lines) == 0 {
		return
	}
	for _, part := range p.d.Split(p.format(strings.Join(lines, "\n")), p.d.MaxText) {
		w.post(ctx, p.opts.At, part)
	}
}

// answer replaces the status message with md, continuing in the thread (or below, where the
// reply is already in a thread) when it does not fit one message.
func (w *worker) answer(ctx context.Context, md string) {
	p := w.p
	text := p.format(md)
	below := p.opts.At.ThreadOf != "" || p.d.Threads == chat.NoThreads || p.d.Threads == chat.Quotes
	marker := p.format("_(continued in the thread)_")
	if below {
		marker = p.format("_(continued below)_")
	}
	parts := p.d.Split(text, p.d.MaxText)
	if len(parts) > 1 {
		parts = p.d.Split(text, p.d.MaxText-len([]rune(marker))-2)
		parts[0] += "\n\n" + marker
	}
	if len(parts) == 0 {
		parts = []string{p.format("_Done._")}
	}
	first := parts[0]
	switch {
	case w.main != "" && p.d.Edit:
		if err := p.s.Edit(ctx, w.mainAt, w.main, first); err != nil {
			// The answer matters more than the status message: post it anew.
			p.log.Warn("could not put the answer in place of the status message; posting it", "err", err)
			w.mainAt = p.top()
			w.main = w.post(ctx, w.mainAt, first)
		}
	default:
		w.mainAt = p.top()
		w.main = w.post(ctx, w.mainAt, first)
	}
	rest := p.top() // the rest of the answer goes below it, or in the thread under it
	switch {
	case p.d.Threads == chat.Quotes:
		rest = p.opts.At // below, without quoting the question again in every part
	case !below:
		rest = p.under(w.main)
	}
	for _, part := range parts[1:] {
		w.post(ctx, rest, part)
	}
}

// silence removes every trace of a run whose answer was [SILENT]: the detail posts newest
// first, then the status message.
func (w *worker) silence(ctx context.Context) {
	p := w.p
	if !p.d.Delete {
		if w.main != "" && p.d.Edit {
			_ = p.s.Edit(ctx, w.mainAt, w.main, p.format("_(nothing to report)_"))
		}
		return
	}
	for i := len(w.thread) - 1; i >= 0; i-- {
		if err := p.s.Delete(ctx, w.thread[i].at, w.thread[i].id); err != nil {
			p.log.Warn("could not delete a detail post", "err", err)
		}
	}
	if w.main != "" {
		if err := p.s.Delete(ctx, w.mainAt, w.main); err != nil {
			p.log.Warn("could not delete the status message", "err", err)
		}
	}
}
