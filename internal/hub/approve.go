package hub

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/store"
)

// How approvals go (the README's "Approvals"): each run in a channel whose settings ask
// (config.Approvals.Asks) gets a gate as its agent.Approver. A call that needs a yes
// (approval.Needs) and has no standing "allow always" becomes a request: noted in the
// channel's approval journal and log.jsonl, shown by whoever draws the run (buttons, or a
// question to answer by typing), and answered through Answer, or by a typed yes/always/no
// (Receive). No answer within the timeout is a no; `stop` ends the wait with the run. A
// request left waiting by a restart is closed as denied when mom starts (closePending), and
// never run: the run itself may be started again, and asks again.

// Unattended is the optional ability of an adapter whose runs may have nobody to ask (`mom
// run` without a terminal): CannotAsk says why, and a call that needs a yes is denied with
// it at once; "" asks as usual.
type Unattended interface {
	CannotAsk() string
}

// waiting holds the requests that wait for an answer, by id.
type waiting struct {
	mu   sync.Mutex
	byID map[string]*request
}

// request is one call waiting for a person's yes.
type request struct {
	id        string
	mem       *member
	ch        *store.ChannelDir
	requester chat.User
	settings  config.Approvals
	answer    chan decision // buffered: the first answer wins
}

// decision is an answer to a request.
type decision struct {
	choice string
	by     chat.User
}

func (w *waiting) add(r *request) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.byID == nil {
		w.byID = make(map[string]*request)
	}
	w.byID[r.id] = r
}

func (w *waiting) remove(id string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	delete(w.byID, id)
}

func (w *waiting) get(id string) *request {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.byID[id]
}

// inChannel returns the oldest request waiting in the channel with key, or nil.
func (w *waiting) inChannel(key string) *request {
	w.mu.Lock()
	defer w.mu.Unlock()
	var found *request
	for _, r := range w.byID {
		if r.ch.Key() == key && (found == nil || r.id < found.id) {
			found = r
		}
	}
	return found
}

// approver returns the gate for j's run, or nil when the channel's calls need no yes.
func (h *Hub) approver(j job) agent.Approver {
	if h.approvalsFor == nil {
		return nil
	}
	s := h.approvalsFor(j.mem.Name(), j.ch.ID())
	if !s.Asks(h.sandbox) {
		return nil
	}
	return &approvalGate{h: h, j: j, settings: s}
}

// approvalGate asks people about the calls of one run (agent.Approver).
type approvalGate struct {
	h        *Hub
	j        job
	settings config.Approvals
}

// Approve lets c run when it needs no yes, is allowed always in the channel, or a person who
// may decide allows it.
func (g *approvalGate) Approve(ctx context.Context, c approval.Call, emit run.Sink) error {
	if !approval.Needs(c, g.settings.Allow) {
		return nil
	}
	h, ch := g.h, g.j.ch
	if u, ok := g.j.mem.Adapter.(Unattended); ok {
		if why := u.CannotAsk(); why != "" {
			h.log.Warn("denied a call that needs approval: nobody can be asked", "channel", ch.Key(), "tool", c.Tool)
			return errors.New(why)
		}
	}
	entries, err := ch.Approvals()
	if err != nil {
		h.log.Warn("could not read the channel's approvals; asking", "channel", ch.Key(), "err", err)
	}
	for _, e := range store.AllowedAlways(entries) {
		if e.Key == c.Key() {
			return nil
		}
	}
	r := &request{id: newRequestID(), mem: g.j.mem, ch: ch, requester: g.j.msg.Sender, settings: g.settings,
		answer: make(chan decision, 1)}
	h.waiting.add(r)
	defer h.waiting.remove(r.id)

	req := approval.Request{ID: r.id, Text: g.questionText(c), Hint: g.hint()}
	h.noteApproval(g.j.mem, ch, store.ApprovalEntry{Type: store.ApprovalAsked, ID: r.id, Key: c.Key(), Subject: c.Subject(), Run: g.j.msg.ID},
		"Asked for approval: "+c.Subject())
	h.log.Info("waiting for approval", "channel", ch.Key(), "request", r.id, "tool", c.Tool)
	emit(run.Event{Type: run.ApprovalStart, Approval: &req})

	timer := time.NewTimer(g.settings.Timeout)
	defer timer.Stop()
	select {
	case d := <-r.answer:
		req.Decision, req.By = d.choice, &d.by
	case <-timer.C:
		req.Decision = approval.Timeout
	case <-ctx.Done():
		req.Decision = approval.Stopped
	}
	req.Outcome = approval.Outcome(req.Decision, req.By, g.settings.Timeout)
	e := store.ApprovalEntry{Type: store.ApprovalDecided, ID: r.id, Decision: req.Decision, By: req.By}
	if req.Decision == approval.Always {
		e.Key = c.Key()
	}
	h.noteApproval(g.j.mem, ch, e, req.Outcome)
	h.log.Info("approval decided", "channel", ch.Key(), "request", r.id, "decision", req.Decision, "by", byID(req.By))
	emit(run.Event{Type: run.ApprovalEnd, Approval: &req})
	switch {
	case req.Allows():
		return nil
	case req.Decision == approval.Stopped:
		return fmt.Errorf("stopped while waiting for approval: %w", ctx.Err())
	case req.Decision == approval.Timeout:
		return fmt.Errorf("not run: nobody approved it within %s, which counts as a no", approval.Minutes(g.settings.Timeout))
	default:
		return fmt.Errorf("not run: %s denied it. Do not try to get around this; ask them what they want instead", approval.Who(*req.By))
	}
}

// questionText is the request as people see it: what will run, what for, where.
func (g *approvalGate) questionText(c approval.Call) string {
	sandbox := g.h.sandbox
	if sandbox == config.SandboxHost {
		sandbox = "the host, without a sandbox"
	}
	return fmt.Sprintf("**Approval needed:** %s\n%s\n_Runs on %s; asked for by %s._", c.Label, c.Subject(), sandbox, approval.Who(g.j.msg.Sender))
}

// hint says who may answer and until when.
func (g *approvalGate) hint() string {
	return fmt.Sprintf("_%s may decide; no answer in %s is a no._",
		upperFirst(approversText(g.settings.Approvers, g.j.mem)), approval.Minutes(g.settings.Timeout))
}

func upperFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// Answer takes a tap on a request's button (chat.Inbox).
func (h *Hub) Answer(ctx context.Context, adapter string, a chat.Answer) string {
	r := h.waiting.get(a.Question)
	if r == nil || r.mem.Name() != adapter || r.ch.ID() != a.ChannelID {
		return "This request is no longer open."
	}
	return h.decide(r, a.Choice, a.User)
}

// decide hands choice to r when by may decide it, and says why not otherwise.
func (h *Hub) decide(r *request, choice string, by chat.User) string {
	if choice != approval.Allow && choice != approval.Always && choice != approval.Deny {
		return "That is not an answer to this request."
	}
	if !mayApprove(r, by) {
		h.log.Info("refused an approval from someone who may not decide", "channel", r.ch.Key(), "user", by.ID)
		return "Only " + approversText(r.settings.Approvers, r.mem) + " can decide this."
	}
	select {
	case r.answer <- decision{choice: choice, by: by}:
		return ""
	default:
		return "Someone has decided this already."
	}
}

// typedAnswer takes m as the answer to the request waiting in its channel, when it is one
// ("yes", "always", "no"), and reports whether it was. Someone who may not decide is told so
// when they addressed mom; a "no" said in passing by someone else is just chatter.
func (h *Hub) typedAnswer(mem *member, ch *store.ChannelDir, m chat.Message) bool {
	choice, ok := approval.ParseTyped(m.Text)
	if !ok || m.Sender.IsBot {
		return false
	}
	r := h.waiting.inChannel(ch.Key())
	if r == nil || !mayApprove(r, m.Sender) && !(m.IsMention || m.IsDM) {
		return false
	}
	if msg := h.decide(r, choice, m.Sender); msg != "" {
		h.notice(mem, m, "_"+msg+"_")
	}
	return true
}

// mayApprove reports whether who may decide r.
func mayApprove(r *request, who chat.User) bool {
	a, admins := r.settings.Approvers, r.mem.cfg.Admins
	switch {
	case who.ID == "":
		return false
	case a.IDs != nil:
		return slices.Contains(a.IDs, who.ID)
	case slices.Contains(admins, who.ID):
		return true
	case a.Requester || len(admins) == 0:
		// Without admins, the person who asked for the run decides its calls.
		return who.ID == r.requester.ID
	}
	return false
}

// approversText says who may decide, for the question and refusals.
func approversText(a config.Approvers, mem *member) string {
	switch {
	case a.IDs != nil:
		return strings.Join(a.IDs, ", ")
	case len(mem.cfg.Admins) == 0:
		return "the person who asked"
	case a.Requester:
		return "the person who asked or an admin"
	default:
		return "an admin"
	}
}

// noteApproval writes e to the channel's approval journal and text as mom's line in
// log.jsonl, so the history shows who decided what. Failures are logged: the run goes on.
func (h *Hub) noteApproval(mem *member, ch *store.ChannelDir, e store.ApprovalEntry, text string) {
	if err := ch.JournalApproval(e); err != nil {
		h.log.Warn("could not note an approval in its journal", "channel", ch.Key(), "err", err)
	}
	now := time.Now()
	line := chat.Message{
		ID: fmt.Sprintf("mom-approval-%d", now.UnixNano()), ChannelID: ch.ID(), TS: now,
		Sender: botOf(mem), Text: text,
		Metadata: map[string]any{"approval": map[string]any{"id": e.ID, "type": e.Type, "decision": e.Decision, "by": e.By}},
	}
	if _, err := ch.AppendLog(line); err != nil {
		h.log.Warn("could not log an approval", "channel", ch.Key(), "err", err)
	}
}

// newRequestID returns a short random id: it must fit a Telegram button's 64 bytes.
func newRequestID() string {
	var b [6]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

func byID(u *chat.User) string {
	if u == nil {
		return ""
	}
	return u.ID
}

// botOf is the sender of mom's own lines in an adapter's logs: the bot's account where the
// adapter knows it, as the agent logs its replies.
func botOf(mem *member) chat.User {
	bot := chat.User{ID: "mom", Username: "mom"}
	if b, ok := mem.Adapter.(BotUser); ok && b.Bot().ID != "" {
		bot = b.Bot()
	}
	bot.IsBot = true
	return bot
}
