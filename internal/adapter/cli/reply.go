package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
)

// reply draws a run in the terminal as it happens: the answer streams, each tool call is a
// `→ label` line, failures are red, and a usage line closes the run.
type reply struct {
	a *Adapter
	w *writer
	// thinking is true while reasoning text is streaming, so the answer starts on a new line.
	thinking bool
	// held is the start of a message's text, kept back while it may still be the whole
	// answer [SILENT] (chat.MaybeSilent), which the terminal never shows; showing says the
	// message turned out to be something else, so the rest streams as it comes.
	held    strings.Builder
	showing bool
	// silent says the run's last message was [SILENT]: its usage line is left out too.
	silent bool
}

func (r *reply) Event(ev run.Event) {
	w := r.w
	switch ev.Type {
	case run.MessageUpdate:
		switch ev.DeltaKind {
		case "text":
			if r.thinking {
				w.endLine()
				r.thinking = false
			}
			r.text(ev.Delta)
		case "thinking":
			if r.a.opts.Interactive {
				r.thinking = true
				w.write(dim, ev.Delta)
			}
		}
	case run.MessageEnd:
		r.silent = !r.showing && chat.IsSilent(r.held.String())
		if !r.showing && !r.silent {
			w.write(plain, r.held.String())
		}
		r.held.Reset()
		r.showing = false
		w.endLine()
		r.thinking = false
	case run.ToolStart:
		w.line(cyan, "→ "+ev.Label)
	case run.ToolEnd:
		if ev.IsError {
			w.line(red, "  ✗ "+firstLine(ev.Output, 200))
		}
	case run.ApprovalStart:
		if ev.Approval != nil {
			showQuestion(w, *ev.Approval)
			w.line(bold, "Type y (yes), a (always in this conversation) or n (no).")
		}
	case run.ApprovalEnd:
		if ev.Approval != nil {
			w.line(yellow, ev.Approval.Outcome)
		}
	case run.RetryStart:
		w.line(dim, fmt.Sprintf("  retrying in %s (attempt %d of %d): %s",
			ev.Delay.Round(100*time.Millisecond), ev.Attempt, ev.MaxAttempts, firstLine(ev.ErrorMessage, 200)))
	case run.CompactionStart:
		w.line(dim, "Compacting context…")
	case run.CompactionEnd:
		if line := render.CompactionLine(ev); line != "" {
			w.line(dim, line)
		}
	case run.AgentEnd:
		w.endLine()
		switch ev.StopReason {
		case llm.StopError:
			w.line(red, "error: "+ev.ErrorMessage)
		case llm.StopAborted:
			w.line(dim, "Stopped.")
		case llm.StopLength:
			w.line(dim, "(the answer was cut off at the model's output limit)")
		}
		if u := render.UsageLine(ev); u != "" && !(r.silent && ev.StopReason != llm.StopError) {
			w.line(dim, "↳ "+u)
		}
	}
}

// text shows streamed answer text, holding back the start of a message while it may still be
// [SILENT].
func (r *reply) text(delta string) {
	if r.showing {
		r.w.write(plain, delta)
		return
	}
	r.held.WriteString(delta)
	if chat.MaybeSilent(r.held.String()) {
		return
	}
	r.showing = true
	r.w.write(plain, r.held.String())
	r.held.Reset()
}

func (r *reply) Upload(ctx context.Context, f chat.File) error {
	return r.a.Upload(ctx, chat.Place{ChannelID: r.a.opts.Channel}, f)
}

func (r *reply) Close(ctx context.Context) error {
	r.a.prompt()
	return nil
}

// firstLine returns the first line of s, cut to max characters.
func firstLine(s string, max int) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}
