package cli

import (
	"bufio"
	"context"
	"strings"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
)

// inbox holds the Inbox the adapter was started with.
type inbox struct{ chat.Inbox }

// cannotAsk is why `mom run` denies a call that needs a yes when no terminal can be asked.
const cannotAsk = "not run: this call needs a person's yes, and mom run has no terminal to ask on " +
	"(standard input is not a terminal, or it held the prompt). Run mom run with --yes to run " +
	"commands unasked, or set \"approvals\": {\"mode\": \"off\"} in config.json."

// CannotAsk says why nobody can be asked in this adapter's runs, or "" when someone can:
// `mom run` without a terminal to read answers from (hub.Unattended).
func (a *Adapter) CannotAsk() string {
	if a.opts.OneShot && a.opts.AskIn == nil {
		return cannotAsk
	}
	return ""
}

// askLine is the prompt under a question in the terminal.
const askLine = "Allow? y = yes, a = always in this conversation, n = no: "

// showQuestion prints a request for approval.
func showQuestion(w *writer, req approval.Request) {
	w.endLine()
	for _, l := range strings.Split(req.Asking(false), "\n") {
		w.line(yellow, l)
	}
}

// readAnswer reads answers to req from the terminal until one makes sense, and hands it to
// the hub. The end of the input is a no.
func (a *Adapter) readAnswer(ctx context.Context, w *writer, r *bufio.Reader, req approval.Request) {
	in := a.in.Load()
	if in == nil {
		return
	}
	for {
		w.write(bold, askLine)
		line, err := r.ReadString('\n')
		choice, ok := approval.ParseTyped(line)
		if err != nil && !ok {
			choice, ok = approval.Deny, true
		}
		if !ok {
			continue
		}
		ans := chat.Answer{Question: req.ID, Choice: choice, ChannelID: a.opts.Channel, User: a.opts.User}
		if msg := in.Answer(ctx, a.opts.Name, ans); msg != "" {
			w.line(red, msg)
		}
		return
	}
}
