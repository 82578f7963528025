package render

import (
	"context"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
)

// A run that waits for a person's yes shows a question (approval_start): with buttons where
// the Surface is a chat.Asker, else as text that says what to reply. When the answer comes
// (approval_end) the question is settled: its buttons go, and it says who decided what. The
// status message says meanwhile that the run waits.

// waitingLine is the status line of a run that waits for an answer.
const waitingLine = "_Waiting for approval…_"

// askStep is one question to show or settle, in the order the run asked them.
type askStep struct {
	req    approval.Request
	settle bool
}

// asked is a question the worker posted: its request id, where, and its id.
type asked struct {
	request string
	posted
}

// ask shows or settles one question. Its message goes where the reply's own messages go.
func (w *worker) ask(ctx context.Context, step askStep) {
	p := w.p
	if step.settle {
		for _, q := range w.questions {
			if q.request == step.req.ID {
				w.settle(ctx, q.posted, step.req)
			}
		}
		return
	}
	at := p.top()
	var id string
	var err error
	if a, ok := p.s.(chat.Asker); ok {
		id, err = a.Ask(ctx, at, p.format(step.req.Asking(false)), step.req.Question())
	} else {
		id, err = p.s.Post(ctx, at, p.format(step.req.Asking(true)))
	}
	if err != nil {
		p.log.Warn("could not ask for approval", "err", err)
		return
	}
	w.questions = append(w.questions, asked{step.req.ID, posted{at, id}})
	if p.opts.Asked != nil {
		p.opts.Asked(step.req.ID, at, id)
	}
}

// settle replaces an answered question with what was asked and how it was decided.
func (w *worker) settle(ctx context.Context, q posted, req approval.Request) {
	p := w.p
	text := p.format(req.Settled())
	var err error
	if a, ok := p.s.(chat.Asker); ok {
		err = a.Settle(ctx, q.at, q.id, text)
	} else if p.d.Edit {
		err = p.s.Edit(ctx, q.at, q.id, text)
	} else {
		_, err = p.s.Post(ctx, q.at, p.format("*"+req.Outcome+"*"))
	}
	if err != nil {
		p.log.Warn("could not update the request for approval", "err", err)
	}
}
