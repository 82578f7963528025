package cli

import (
	"bufio"
	"context"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
)

// oneShot shows a run for scripts: progress and errors on the progress writer (stderr), and
// only the final answer on the output, so `mom run ... > answer.txt` captures just that.
type oneShot struct {
	ctx      context.Context
	a        *Adapter
	progress *writer
	// asks reads answers to requests for approval from Options.AskIn.
	asks   *bufio.Reader
	answer string
	result run.Event
}

func (o *oneShot) Event(ev run.Event) {
	p := o.progress
	switch ev.Type {
	case run.MessageEnd:
		if ev.Message != nil && ev.Message.Role == llm.RoleAssistant {
			if text := ev.Message.Text(); text != "" {
				o.answer = text
			}
		}
	case run.ToolStart:
		p.line(plain, "→ "+ev.Label)
	case run.ToolEnd:
		if ev.IsError {
			p.line(plain, "  ✗ "+firstLine(ev.Output, 200))
		}
	case run.ApprovalStart:
		if ev.Approval != nil && o.a.opts.AskIn != nil {
			showQuestion(p, *ev.Approval)
			req := *ev.Approval
			if o.asks == nil {
				o.asks = bufio.NewReader(o.a.opts.AskIn)
			}
			go o.a.readAnswer(o.ctx, p, o.asks, req)
		}
	case run.ApprovalEnd:
		if ev.Approval != nil {
			p.line(plain, ev.Approval.Outcome)
		}
	case run.RetryStart:
		p.line(plain, "  retrying: "+firstLine(ev.ErrorMessage, 200))
	case run.CompactionStart:
		p.line(plain, "Compacting context…")
	case run.CompactionEnd:
		if line := render.CompactionLine(ev); line != "" {
			p.line(plain, line)
		}
	case run.AgentEnd:
		o.result = ev
		switch ev.StopReason {
		case llm.StopError:
			p.line(plain, "error: "+ev.ErrorMessage)
		case llm.StopAborted:
			p.line(plain, "stopped")
		}
		if u := render.UsageLine(ev); u != "" {
			p.line(plain, u)
		}
	}
}

func (o *oneShot) Upload(ctx context.Context, f chat.File) error {
	return o.a.Upload(ctx, chat.Place{ChannelID: o.a.opts.Channel}, f)
}

// Close prints the answer and records how the run ended for the exit status.
func (o *oneShot) Close(ctx context.Context) error {
	if o.answer != "" {
		o.a.out.line(plain, o.answer)
	}
	o.a.setOutcome(o.result.StopReason)
	return nil
}
