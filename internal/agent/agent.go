package agent

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/tools"
)

// Options configure an Agent.
type Options struct {
	// Provider answers model requests. When nil (no API key was found), every run ends at once
	// with NoProviderHint as its error, so people learn what to configure.
	Provider       llm.Provider
	NoProviderHint string
	// Models are the models runs may use instead of the default, by the name
	// Request.Model gives (config.json's "models").
	Models map[string]ModelChoice
	// RefusedKeyHint is added to the error when the model's server refuses the key (401,
	// 403): where the key came from, so people know what to fix.
	RefusedKeyHint string
	Model          llm.Model
	Thinking       llm.ThinkingLevel
	// MaxTokens caps each answer; zero means the model's maximum.
	MaxTokens int
	Retry     RetryPolicy
	// Compaction says when the context is compacted; the zero value never compacts by itself.
	Compaction CompactionSettings
	// Exec is where tools run.
	Exec sandbox.Executor
	// Tools are the tools the model may call.
	Tools []tools.Tool
	// Custom, when set, holds the host-side custom tools, which may change while mom runs.
	// Each run offers them through invoke_tool, or each as a tool of its own when
	// CustomToolsDirect is set, and lists them in the system prompt.
	Custom            tools.CustomTools
	CustomToolsDirect bool
	// Location is the time zone of the timestamps in prompts; nil means the host's.
	Location *time.Location
	Logger   *slog.Logger
	// PlatformName says what the system prompt tells the model it lives in, for a channel's
	// AdapterType: the platform's name as people know it ("a terminal"), which the registry
	// of platforms knows. Nil, or "" for a type, says "a chat platform".
	PlatformName func(adapterType string) string
}

// Agent answers messages in channels (the spec's MomAgent). One run per channel at a time;
// runs in different channels proceed in parallel.
type Agent struct {
	opts  Options
	store *store.Store
	cfg   loopConfig
	zone  string // IANA name of opts.Location, for the prompt

	mu   sync.Mutex
	runs map[string]*activeRun

	custom customCache
}

// activeRun is the state of a running run that other goroutines may touch.
type activeRun struct {
	cancel context.CancelFunc

	mu      sync.Mutex
	steered []chat.Message // waiting to be delivered at the next tool boundary
	ended   bool
}

// New returns an Agent that keeps its channels in st.
func New(st *store.Store, opts Options) *Agent {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Location == nil {
		opts.Location = time.Local
	}
	return &Agent{
		opts:  opts,
		store: st,
		zone:  zoneName(opts.Location),
		cfg: loopConfig{
			Provider: opts.Provider, Model: opts.Model, Thinking: opts.Thinking,
			MaxTokens: opts.MaxTokens, Tools: opts.Tools, Retry: opts.Retry,
			Compaction: opts.Compaction, RefusedKeyHint: opts.RefusedKeyHint,
		},
		runs: make(map[string]*activeRun),
	}
}

// ChannelContext is what the agent knows about the place a message came from (the spec's
// ChannelContext).
type ChannelContext struct {
	// AdapterType is the platform's kind: the adapter's "type" in config.json.
	AdapterType string
	// ChannelName is the channel's human name ("general", "DM with mario").
	ChannelName string
	IsDM        bool
	// Bot is the bot's own user on the platform; its replies are logged as this sender.
	Bot      chat.User
	Users    []chat.User
	Channels []chat.Channel
	// Membership, when the adapter has it, tells which channels the person who sent the
	// trigger is in, for the sandbox's user isolation.
	Membership Membership
}

// Request is one message for the agent to answer.
type Request struct {
	// ChannelDir is the directory of the channel the run is in: its log, context and files.
	ChannelDir *store.ChannelDir
	// Trigger is the message to answer. It is already in the channel's log, and LogEnd is the
	// log offset just past it: every log line before LogEnd that the context has not seen yet
	// is added to the context before the trigger. Zero means the end of the log.
	Trigger chat.Message
	LogEnd  int64
	Context ChannelContext
	// Sink receives the run's events; it may be nil.
	Sink run.Sink
	// Upload sends a file to the channel (the attach tool); nil where files cannot be sent.
	Upload func(ctx context.Context, f chat.File) error
	// Waited says the trigger was sent while mom was down or starting, or its run was
	// interrupted by a restart: it is answered late, and the model is told so.
	Waited bool
	// Approver, when set, is asked before each tool call whether it may run (approvals);
	// nil runs every call.
	Approver Approver
	// Model names the model of Options.Models the run uses; "" is the default.
	Model string
}

// ErrBusy is returned in a Result's error when the channel already has a run.
var ErrBusy = errors.New("a run is already in progress in this channel")

// HandleMessage answers one message (the spec's handleMessage): it brings the channel's context
// up to date with its log, asks the model, runs the tools it calls, and records everything in
// context.jsonl and the bot's replies in log.jsonl. It returns when the run is over; it never
// panics on a model's or tool's failure, which end the run with StopReason error instead.
func (a *Agent) HandleMessage(ctx context.Context, req Request) (res Result) {
	key := req.ChannelDir.Key()
	origin := llm.Origin{Adapter: req.ChannelDir.Adapter(), Channel: req.ChannelDir.ID(), WakeUp: req.Trigger.WakeUpFile()}
	if origin.WakeUp == "" { // a wake-up's sender is a stand-in, not a person
		origin.User = req.Trigger.Sender.ID
	}
	ctx = llm.WithOrigin(ctx, origin)
	ctx, active, err := a.begin(ctx, key)
	if err != nil {
		return a.fail(req.Sink, err)
	}
	defer a.end(key, active)
	defer func() {
		if p := recover(); p != nil {
			a.opts.Logger.Error("agent run crashed", "channel", key, "panic", p)
			a.end(key, active)
			res = a.fail(req.Sink, fmt.Errorf("internal error: %v", p))
		}
	}()
	cfg, hint := a.runConfig(req.Model)
	if cfg.Provider == nil {
		a.end(key, active)
		return a.fail(req.Sink, errors.New(hint))
	}
	sess, err := req.ChannelDir.Session()
	if err != nil {
		a.end(key, active)
		return a.fail(req.Sink, err)
	}
	if err := noteModel(sess, cfg.Model); err != nil {
		a.end(key, active)
		return a.fail(req.Sink, err)
	}
	cursor, transcribed, err := a.syncLog(req, sess)
	if err != nil {
		a.end(key, active)
		return a.fail(req.Sink, err)
	}
	saved := len(cursor.IDs) // syncLog has saved the cursor as it is now
	var custom []llm.Tool
	cfg.Tools, custom = a.runTools()
	system := a.systemPrompt(req, custom)

	l := &loop{
		cfg: &cfg, system: system, sink: req.Sink, sess: sess,
		history: func() []llm.Message { return contextView(sess) },
		persist: func(m llm.Message) error { return a.persist(req, sess, m) },
		env:     a.toolEnv(req),
	}
	if req.Approver != nil {
		builtin := make(map[string]bool, len(a.opts.Tools))
		for _, t := range a.opts.Tools {
			builtin[t.Def().Name] = true
		}
		l.approve = func(ctx context.Context, call llm.Content) error {
			return req.Approver.Approve(ctx, a.approvalCall(req, l.env, builtin, call), l.emit)
		}
	}
	l.addCost(transcribed)
	l.steer = func() []llm.Message {
		msgs, cost := a.takeSteered(active, req, &cursor)
		l.addCost(cost)
		return msgs
	}
	res = l.run(ctx)
	if res.StopReason == llm.StopError {
		a.logFailure(req, res.ErrorMessage)
	}
	if len(cursor.IDs) > saved { // steering delivered messages the next sync must skip
		if _, err := sess.AppendCustom(cursorType, cursor); err != nil {
			a.opts.Logger.Error("could not save the log cursor", "channel", key, "err", err)
		}
	}
	if err := sess.Sync(); err != nil {
		a.opts.Logger.Error("could not flush context.jsonl", "channel", key, "err", err)
	}
	a.end(key, active)
	l.emit(l.endEvent(res))
	return res
}

// Abort stops the channel's run, if there is one, and reports whether there was (the spec's
// abort). The run ends promptly with StopReason aborted.
func (a *Agent) Abort(key string) bool {
	a.mu.Lock()
	active := a.runs[key]
	a.mu.Unlock()
	if active == nil {
		return false
	}
	active.cancel()
	return true
}

// IsRunning reports whether the channel has a run (the spec's isRunning).
func (a *Agent) IsRunning(key string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.runs[key] != nil
}

// Steer hands m to the channel's running run, which reads it at its next tool boundary. It
// returns false when no run is there to take it (it just ended, or never started), so the
// caller can queue it instead.
func (a *Agent) Steer(key string, m chat.Message) bool {
	a.mu.Lock()
	active := a.runs[key]
	a.mu.Unlock()
	if active == nil {
		return false
	}
	active.mu.Lock()
	defer active.mu.Unlock()
	if active.ended {
		return false
	}
	active.steered = append(active.steered, m)
	return true
}

func (a *Agent) begin(ctx context.Context, key string) (context.Context, *activeRun, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.runs[key] != nil {
		return ctx, nil, ErrBusy
	}
	ctx, cancel := context.WithCancel(ctx)
	active := &activeRun{cancel: cancel}
	a.runs[key] = active
	return ctx, active, nil
}

// end unregisters the run; calling it again does nothing. Steered messages that arrived too
// late for the run stay in the log and reach the context with the next run's sync.
func (a *Agent) end(key string, active *activeRun) {
	active.mu.Lock()
	active.ended = true
	active.mu.Unlock()
	active.cancel()
	a.mu.Lock()
	if a.runs[key] == active {
		delete(a.runs, key)
	}
	a.mu.Unlock()
}

// fail ends a run that could not start, telling the sink why.
func (a *Agent) fail(sink run.Sink, err error) Result {
	if sink != nil {
		sink(run.Event{Type: run.AgentStart})
		sink(run.Event{Type: run.AgentEnd, StopReason: llm.StopError, ErrorMessage: err.Error(), Usage: &llm.Usage{}})
	}
	return Result{StopReason: llm.StopError, ErrorMessage: err.Error()}
}

func (a *Agent) toolEnv(req Request) tools.Env {
	scratch := req.ChannelDir.Files().Join("scratch")
	ex := sandbox.ForRun(a.opts.Exec, a.scope(req))
	return tools.Env{
		Exec: ex, Cwd: ex.SandboxPath(scratch.Path()), Scratch: scratch,
		Upload: req.Upload, Channel: req.ChannelDir.Key(),
	}
}
