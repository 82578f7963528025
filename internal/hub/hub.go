// Package hub routes what adapters hear. Every message is appended to its channel's log.jsonl
// first, trigger or not; one sent before start-up that is already in the log (sent again
// after mom died) is not logged twice. Messages sent before start-up (redeliveries,
// backfill) stop there unless they are recent mentions, which are answered late (resume.go).
// Then the hub applies access control (access.go: who may start a run in DMs and in groups),
// recognizes triggers (a mention or a DM) and `stop`, and runs the agent through a per-channel
// queue: one run per channel at a time, channels in parallel up to a global limit on
// concurrent runs, shared fairly between channels (slots.go). A trigger that arrives while
// its channel is busy is handled by the adapter's busy policy: reject, queue or steer.
package hub

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// maxQueued is how many triggers may wait behind a channel's run in queue mode. More are
// refused with a notice; they stay in the log and reach the context with the next run.
const maxQueued = 5

// Hub implements chat.Inbox for every adapter.
type Hub struct {
	store  *store.Store
	runner Runner
	log    *slog.Logger

	// started is when mom started. Messages sent before it (a platform's redelivery or
	// backfill after a restart) are logged, and run only when recent (resumeWithin).
	started time.Time
	// repeats recognizes messages from before start-up that are in the log already.
	repeats repeats
	// resumeWithin is how recent a trigger from before start-up must be to be run
	// (resume.go); zero runs none.
	resumeWithin time.Duration
	// left is what the run journals left unfinished, read at the first Resume.
	left leftRuns

	// approvalsFor returns a channel's approval settings (nil: none ever asks); sandbox is
	// the sandbox's type, which the default mode asks on; waiting holds the requests
	// (approve.go).
	approvalsFor func(adapter, channel string) config.Approvals
	sandbox      string
	waiting      waiting
	leftRequests leftRequests

	// modelFor is config.json's model for a channel; cost answers /cost (commands.go).
	modelFor func(adapter, channel string) string
	cost     func(adapter, channel, user string) string

	// presence remembers whether an adapter's admins are in a group, for "groups": "admins";
	// departures, which groups mom is leaving or has left.
	presence   *presence
	departures departures

	// slots limits how many runs go at once across channels; waitNotice is how long a
	// person's run waits for one before they are told.
	slots      *slots
	waitNotice time.Duration

	// observer hears what the hub does (observe.go); nil for none.
	observer Observer
	// transcriber transcribes the audio of messages before they are logged; nil for none.
	transcriber Transcriber

	ctx    context.Context // runs and notices stop when it ends
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu       sync.Mutex
	adapters map[string]*member
	queues   map[string]*queue
	refused  map[refusal]bool       // people and groups already told that mom will not work for them
	lastRun  map[string]lastRun     // how each channel's last run ended, for /status
	used     map[string]usedChannel // channels whose contexts may be open (rest.go)
	closed   bool
	idle     chan struct{} // closed when the last queue empties; nil while idle
}

// member is a registered adapter with its settings.
type member struct {
	chat.Adapter
	cfg config.AdapterEntry
}

// Options are the hub's limits.
type Options struct {
	// MaxConcurrentRuns is how many runs may go at once across all channels (config.json's
	// "maxConcurrentRuns"); zero means config.DefaultMaxConcurrentRuns.
	MaxConcurrentRuns int
	// WaitNotice is how long a person's run may wait for a free slot before they are told
	// that it waits; zero means DefaultWaitNotice.
	WaitNotice time.Duration
	// ResumeWithin is how recent work a restart interrupted must be to be done after it:
	// runs the last mom did not finish, mentions sent while it was down or starting
	// (config.json's "resume"). Zero does none of it.
	ResumeWithin time.Duration
	// Approvals returns the approval settings of a channel (config.Config.ApprovalsFor); nil
	// never asks. Sandbox is the sandbox's type, on which "ask-host" asks.
	Approvals func(adapter, channel string) config.Approvals
	Sandbox   string
	// ModelFor names the model config.json gives a channel's runs ("" for the default);
	// `/model` in the chat overrides it. Nil runs every channel on the default.
	ModelFor func(adapter, channel string) string
	// Cost answers `/cost` for a channel and the person who asks; nil says spending is
	// not tracked.
	Cost func(adapter, channel, user string) string
	// Observer hears of runs and busy replies, for metrics; nil for none.
	Observer Observer
	// Transcriber transcribes voice notes before they are logged; nil for none.
	Transcriber Transcriber
}

// DefaultWaitNotice is how long a person's run waits for a slot before mom says so. A wait
// shorter than this passes unremarked (the answer starts about as soon as it would anyway);
// a longer one without a word would look like mom ignored the message.
const DefaultWaitNotice = 3 * time.Second

// Runner runs the agent in channels, one run per channel at a time (the spec's MomAgent:
// handleMessage, abort, isRunning, and steering a run that is going). *agent.Agent is the one
// mom uses; the hub's tests of queues, slots and access use a stand-in that needs no model.
// Channels are named by their store key (store.ChannelDir.Key).
type Runner interface {
	// HandleMessage answers one trigger and returns when the run is over, after its
	// agent_end has reached req.Sink.
	HandleMessage(ctx context.Context, req agent.Request) agent.Result
	// Abort stops the channel's run and reports whether there was one.
	Abort(key string) bool
	// IsRunning reports whether the channel has a run.
	IsRunning(key string) bool
	// Steer hands m to the channel's run at its next step; false when no run is there to
	// take it.
	Steer(key string, m chat.Message) bool
}

// New returns a hub that logs to st and runs triggers with r.
func New(st *store.Store, r Runner, log *slog.Logger, opts Options) *Hub {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.MaxConcurrentRuns <= 0 {
		opts.MaxConcurrentRuns = config.DefaultMaxConcurrentRuns()
	}
	if opts.WaitNotice <= 0 {
		opts.WaitNotice = DefaultWaitNotice
	}
	ctx, cancel := context.WithCancel(context.Background())
	return &Hub{
		store: st, runner: r, log: log, ctx: ctx, cancel: cancel, started: time.Now(),
		slots: newSlots(opts.MaxConcurrentRuns), waitNotice: opts.WaitNotice, resumeWithin: opts.ResumeWithin,
		approvalsFor: opts.Approvals, sandbox: opts.Sandbox, modelFor: opts.ModelFor, cost: opts.Cost,
		lastRun:  make(map[string]lastRun),
		used:     make(map[string]usedChannel),
		adapters: make(map[string]*member),
		queues:   make(map[string]*queue),
		refused:  make(map[refusal]bool),
		presence: newPresence(),
		observer: opts.Observer, transcriber: opts.Transcriber,
	}
}

// Register adds an adapter and its settings from config.json. What the adapter can do beyond
// chat.Adapter (Replier, BotUser, Groups, Leaver, agent.Membership) the hub finds out when it
// needs to.
func (h *Hub) Register(a chat.Adapter, cfg config.AdapterEntry) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if _, dup := h.adapters[a.Name()]; dup {
		return fmt.Errorf("adapter %s is registered twice", a.Name())
	}
	h.adapters[a.Name()] = &member{Adapter: a, cfg: cfg}
	return nil
}

// ErrClosed is returned by Receive once the hub is shutting down.
var ErrClosed = errors.New("mom is shutting down")

// Receive logs m and acts on it (chat.Inbox). It returns once m is in log.jsonl and, for a
// message that addresses mom, once access control has decided (which may ask the platform
// whether an admin is in the group: see access.go); the run it may start happens in the
// background.
func (h *Hub) Receive(ctx context.Context, adapter string, m chat.Message) error {
	mem, err := h.member(adapter, "message")
	if err != nil {
		return err
	}
	ch, err := h.store.ChannelDir(adapter, m.ChannelID)
	if err != nil {
		return err
	}
	if m.TS.Before(h.started) {
		if dup, err := h.repeats.seen(ch, m.ID); err != nil || dup {
			return err
		}
	}
	if h.transcriber != nil && !m.Sender.IsBot && len(m.Attachments) > 0 {
		h.transcriber.Transcribe(ctx, ch, &m)
	}
	pos, err := ch.AppendLog(m)
	if err != nil {
		return fmt.Errorf("could not log the message: %w", err)
	}
	h.repeats.logged(ch, m.ID)
	late := m.TS.Before(h.started)
	if !late && h.typedAnswer(mem, ch, m) {
		return nil
	}
	if m.Sender.IsBot || !(m.IsMention || m.IsDM) || late && !h.recent(m.TS) {
		return nil
	}
	if !h.admits(ctx, mem, m) {
		return nil
	}
	j := job{mem: mem, ch: ch, msg: m, logEnd: pos.End, attempt: 1}
	switch {
	case late && isStop(m.Text):
		// A `stop` sent while mom was down has no run to stop.
	case late:
		h.answerLate(j)
	case isStop(m.Text):
		h.stop(mem, ch, m)
	case h.command(mem, ch, m):
	default:
		h.trigger(mem, ch, j)
	}
	return nil
}

// member returns the registered adapter called name, or why work for it (a "message", an
// "event") cannot be taken.
func (h *Hub) member(name, what string) (*member, error) {
	h.mu.Lock()
	mem, closed := h.adapters[name], h.closed
	h.mu.Unlock()
	if closed {
		return nil, ErrClosed
	}
	if mem == nil {
		return nil, fmt.Errorf("%s from unknown adapter %q", what, name)
	}
	return mem, nil
}

// Shutdown stops accepting messages, aborts every run, drops the runs waiting for a slot and
// waits for runs and notices to finish (or ctx to end). Files are flushed by the store's
// Close, which the caller does afterwards.
func (h *Hub) Shutdown(ctx context.Context) error {
	h.mu.Lock()
	h.closed = true
	for key, q := range h.queues {
		q.jobs = nil
		h.runner.Abort(key)
	}
	h.mu.Unlock()
	h.cancel()
	done := make(chan struct{})
	go func() { h.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("runs did not finish in time: %w", ctx.Err())
	}
}

// WaitIdle returns once no run is going or waiting in any channel, or when ctx ends.
func (h *Hub) WaitIdle(ctx context.Context) error {
	h.mu.Lock()
	idle := h.idle
	h.mu.Unlock()
	if idle == nil {
		return nil
	}
	select {
	case <-idle:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
