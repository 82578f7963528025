package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/session"
	"github.com/mom-agent/mom/internal/tools"
)

// loopConfig is what stays the same from run to run.
type loopConfig struct {
	Provider  llm.Provider
	Model     llm.Model
	Thinking  llm.ThinkingLevel
	MaxTokens int
	Tools     []tools.Tool
	Retry     RetryPolicy
	// Compaction keeps the context inside the model's window (compact.go).
	Compaction CompactionSettings
	// RefusedKeyHint says where the key came from (Options.RefusedKeyHint).
	RefusedKeyHint string
}

// explain words a failed model call for people: the provider's error, and where the key
// came from when the server refused it.
func (c *loopConfig) explain(err error) string {
	var e *llm.Error
	if c.RefusedKeyHint != "" && errors.As(err, &e) && e.Kind == llm.ErrAuth {
		return err.Error() + " (" + c.RefusedKeyHint + ")"
	}
	return err.Error()
}

// Result is how a run ended (the spec's { stopReason, errorMessage }).
type Result struct {
	// StopReason is stop or length when the model finished, error when the run failed, and
	// aborted when it was stopped.
	StopReason   llm.StopReason
	ErrorMessage string
	// Text is the text of the run's last assistant message: the answer people see.
	Text string
}

// loop is one run in one channel: model calls and tool calls, until the model answers without
// calling a tool, the run is aborted, or it fails. It follows pi's agent loop: tool errors go
// back to the model as content, messages queued by people steer the run at tool boundaries,
// and every message is persisted the moment it is complete, so a crash loses at most the
// message in flight and never leaves a tool call without its result.
type loop struct {
	cfg    *loopConfig
	system string
	// history returns the conversation so far; persist adds a message to it durably. The
	// session is the one copy of the conversation: the loop keeps none of its own.
	history func() []llm.Message
	persist func(llm.Message) error
	steer   func() []llm.Message
	env     tools.Env
	// approve, when set, says whether a call may run (Request.Approver): nil, or why not.
	approve func(ctx context.Context, call llm.Content) error
	sink    run.Sink
	// sess is the channel's session, which compaction reads and appends to; nil turns
	// compaction off.
	sess *session.Session

	emitMu    sync.Mutex
	usage     llm.Usage
	lastUsage llm.Usage
	lastText  string
	queued    []llm.Message // steering messages waiting for the next model call
}

// emit hands ev to the sink. Tools report progress from their own goroutines, so calls are
// serialized here rather than in every sink.
func (l *loop) emit(ev run.Event) {
	if l.sink == nil {
		return
	}
	l.emitMu.Lock()
	defer l.emitMu.Unlock()
	l.sink(ev)
}

// run executes the loop after reporting agent_start. The caller reports agent_end (endEvent)
// once the run's files are flushed, so that people who see the end can rely on it.
func (l *loop) run(ctx context.Context) Result {
	l.emit(run.Event{Type: run.AgentStart})
	res := l.turns(ctx)
	// A run stopped once its last answer is complete (mom shutting down as it finished) is
	// not aborted: the answer is saved and shown, and it must not be run again after a
	// restart.
	complete := res.StopReason == llm.StopEnd || res.StopReason == llm.StopLength
	if ctx.Err() != nil && res.StopReason != llm.StopError && !complete {
		res.StopReason = llm.StopAborted
	}
	res.Text = l.lastText
	return res
}

// endEvent is the agent_end event for res.
func (l *loop) endEvent(res Result) run.Event {
	usage := l.usage
	return run.Event{
		Type: run.AgentEnd, StopReason: res.StopReason, ErrorMessage: res.ErrorMessage,
		Usage: &usage, ContextTokens: l.lastUsage.ContextTokens(), ContextWindow: l.cfg.Model.ContextWindow,
	}
}

func (l *loop) turns(ctx context.Context) Result {
	for {
		l.emit(run.Event{Type: run.TurnStart})
		msg, err := l.ask(ctx)
		if err != nil {
			l.emit(run.Event{Type: run.TurnEnd})
			if ctx.Err() != nil {
				return Result{StopReason: llm.StopAborted}
			}
			return Result{StopReason: llm.StopError, ErrorMessage: l.cfg.explain(err)}
		}
		calls := msg.ToolCalls()
		if len(calls) > 0 {
			if err := l.runTools(ctx, calls); err != nil {
				l.emit(run.Event{Type: run.TurnEnd})
				return Result{StopReason: llm.StopError, ErrorMessage: err.Error()}
			}
		}
		l.emit(run.Event{Type: run.TurnEnd})
		if ctx.Err() != nil {
			return Result{StopReason: llm.StopAborted}
		}
		l.compactIfFull(ctx)
		steered, err := l.addSteering()
		if err != nil {
			return Result{StopReason: llm.StopError, ErrorMessage: err.Error()}
		}
		if len(calls) == 0 && !steered {
			return Result{StopReason: msg.StopReason, ErrorMessage: msg.ErrorMessage}
		}
	}
}

// ask streams one answer from the model and records it. On failure the partial answer is
// recorded too, marked as aborted or failed, without its tool calls (they never ran).
func (l *loop) ask(ctx context.Context) (*llm.Message, error) {
	req := &llm.Request{
		Model: l.cfg.Model, System: l.system, Messages: l.history(), Tools: l.toolDefs(),
		Thinking: l.cfg.Thinking, MaxTokens: l.cfg.MaxTokens,
	}
	started := false
	newHandler := func() func(llm.StreamEvent) {
		started = false // a retry starts a new message; renderers drop the failed attempt's text
		return func(ev llm.StreamEvent) {
			if !started {
				started = true
				l.emit(run.Event{Type: run.MessageStart, Message: &llm.Message{Role: llm.RoleAssistant}})
			}
			switch ev.Type {
			case llm.EventTextDelta:
				l.emit(run.Event{Type: run.MessageUpdate, DeltaKind: "text", Delta: ev.Delta})
			case llm.EventThinkingDelta:
				l.emit(run.Event{Type: run.MessageUpdate, DeltaKind: "thinking", Delta: ev.Delta})
			}
		}
	}
	msg, err := l.streamWithRetry(ctx, req, newHandler)
	if llm.IsOverflow(err) && ctx.Err() == nil {
		msg, err = l.recoverOverflow(ctx, req, newHandler, err)
	}
	if err != nil {
		failed := l.failedMessage(ctx, msg, err)
		if !started {
			l.emit(run.Event{Type: run.MessageStart, Message: &llm.Message{Role: llm.RoleAssistant}})
		}
		if perr := l.record(failed); perr != nil {
			return nil, perr
		}
		l.emit(run.Event{Type: run.MessageEnd, Message: &failed})
		return nil, err
	}
	if !started {
		l.emit(run.Event{Type: run.MessageStart, Message: &llm.Message{Role: llm.RoleAssistant}})
	}
	if err := l.record(*msg); err != nil {
		return nil, err
	}
	l.usage = l.usage.Add(msg.Usage)
	l.lastUsage = msg.Usage
	if text := msg.Text(); text != "" {
		l.lastText = text
	}
	l.emit(run.Event{Type: run.MessageEnd, Message: msg})
	return msg, nil
}

// failedMessage turns what arrived of a failed answer into a message worth keeping: its text
// and reasoning, no tool calls, and the reason it ended.
func (l *loop) failedMessage(ctx context.Context, partial *llm.Message, err error) llm.Message {
	m := llm.Message{
		Role: llm.RoleAssistant, API: l.cfg.Model.API, Provider: l.cfg.Model.Provider,
		Model: l.cfg.Model.ID, Timestamp: time.Now().UnixMilli(), Content: []llm.Content{},
	}
	if partial != nil {
		m.Usage = partial.Usage
		if partial.Model != "" {
			m.Model = partial.Model
		}
		for _, c := range partial.Content {
			if c.Type != llm.TypeToolCall {
				m.Content = append(m.Content, c)
			}
		}
	}
	if ctx.Err() != nil {
		m.StopReason = llm.StopAborted
		return m
	}
	m.StopReason, m.ErrorMessage = llm.StopError, l.cfg.explain(err)
	return m
}

// record adds m to the conversation.
func (l *loop) record(m llm.Message) error {
	if err := l.persist(m); err != nil {
		return fmt.Errorf("could not save the conversation: %w", err)
	}
	return nil
}

// runTools runs the calls of one answer in order. Every call gets a result, even when the run
// is aborted or a person's message arrives first, because providers reject a tool call
// without one. It returns an error only when a result could not be saved.
func (l *loop) runTools(ctx context.Context, calls []llm.Content) error {
	skip := false
	for _, call := range calls {
		var res llm.Message
		switch {
		case ctx.Err() != nil:
			res = l.errorResult(call, "Aborted: the run was stopped before this tool call ran.")
		case skip:
			res = l.errorResult(call, "Skipped due to queued user message.")
		default:
			res = l.execute(ctx, call)
		}
		if err := l.record(res); err != nil {
			return err
		}
		if !skip && l.steeringWaiting() {
			skip = true
		}
	}
	return nil
}

func (l *loop) errorResult(call llm.Content, text string) llm.Message {
	return llm.Message{
		Role: llm.RoleToolResult, ToolCallID: call.ID, ToolName: call.Name, IsError: true,
		Content: []llm.Content{llm.Text(text)}, Timestamp: time.Now().UnixMilli(),
	}
}

// execute runs one tool call and reports it. The tool's error, bad arguments, an unknown tool
// name or even a panic become an error result for the model to read and act on.
func (l *loop) execute(ctx context.Context, call llm.Content) llm.Message {
	label := labelOf(call)
	l.emit(run.Event{Type: run.ToolStart, ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments, Label: label})
	start := time.Now()
	content, details, isErr := l.approveAndInvoke(ctx, call)
	dur := time.Since(start)
	res := llm.Message{
		Role: llm.RoleToolResult, ToolCallID: call.ID, ToolName: call.Name, Content: content,
		IsError: isErr, Timestamp: time.Now().UnixMilli(),
	}
	if details != nil {
		if raw, err := json.Marshal(details); err == nil {
			res.Details = raw
		}
	}
	l.emit(run.Event{
		Type: run.ToolEnd, ToolCallID: call.ID, ToolName: call.Name, Args: call.Arguments, Label: label,
		Output: res.Text(), Result: content, Details: details, IsError: isErr, Duration: dur,
	})
	return res
}

// approveAndInvoke runs call once it may: a call that needs a yes and does not get one is an
// error result that says why, for the model to read and act on.
func (l *loop) approveAndInvoke(ctx context.Context, call llm.Content) ([]llm.Content, any, bool) {
	if l.approve != nil && l.tool(call.Name) != nil && tools.Validate(l.tool(call.Name), call.Arguments) == nil {
		if err := l.approve(ctx, call); err != nil {
			return []llm.Content{llm.Text(err.Error())}, nil, true
		}
	}
	return l.invoke(ctx, call)
}

func (l *loop) invoke(ctx context.Context, call llm.Content) (content []llm.Content, details any, isErr bool) {
	fail := func(format string, a ...any) ([]llm.Content, any, bool) {
		return []llm.Content{llm.Text(fmt.Sprintf(format, a...))}, nil, true
	}
	tool := l.tool(call.Name)
	if tool == nil {
		return fail("Tool %q does not exist. Available tools: %s.", call.Name, l.toolNames())
	}
	if err := tools.Validate(tool, call.Arguments); err != nil {
		return fail("Invalid arguments for %s: %v", call.Name, err)
	}
	env := l.env
	env.Progress = func(partial string) {
		l.emit(run.Event{Type: run.ToolUpdate, ToolCallID: call.ID, ToolName: call.Name, Output: partial})
	}
	defer func() {
		if p := recover(); p != nil {
			content, details, isErr = fail("Tool %s crashed: %v", call.Name, p)
		}
	}()
	res, err := tool.Run(ctx, &env, call.Arguments)
	if err != nil {
		if errors.Is(err, context.Canceled) && ctx.Err() != nil {
			err = fmt.Errorf("aborted: %w", err)
		}
		text := err.Error()
		if text == "" {
			text = "the tool failed without saying why"
		}
		return []llm.Content{llm.Text(text)}, res.Details, true
	}
	if len(res.Content) == 0 {
		res.Content = []llm.Content{llm.Text("(no output)")}
	}
	return res.Content, res.Details, false
}

// steeringWaiting moves messages people sent during the run into the loop's queue and reports
// whether there are any.
func (l *loop) steeringWaiting() bool {
	if l.steer == nil {
		return false
	}
	if msgs := l.steer(); len(msgs) > 0 {
		l.queued = append(l.queued, msgs...)
	}
	return len(l.queued) > 0
}

// addSteering appends queued messages to the context before the next model call.
func (l *loop) addSteering() (bool, error) {
	l.steeringWaiting()
	if len(l.queued) == 0 {
		return false, nil
	}
	for _, m := range l.queued {
		if err := l.record(m); err != nil {
			return false, err
		}
	}
	l.queued = nil
	return true, nil
}

func (l *loop) tool(name string) tools.Tool {
	for _, t := range l.cfg.Tools {
		if t.Def().Name == name {
			return t
		}
	}
	return nil
}

func (l *loop) toolDefs() []llm.Tool {
	defs := make([]llm.Tool, len(l.cfg.Tools))
	for i, t := range l.cfg.Tools {
		defs[i] = t.Def()
	}
	return defs
}

func (l *loop) toolNames() string {
	names := ""
	for i, t := range l.cfg.Tools {
		if i > 0 {
			names += ", "
		}
		names += t.Def().Name
	}
	return names
}

// labelOf returns the call's "label" argument, which people see while it runs, or the tool's
// name when the model left it out.
func labelOf(call llm.Content) string {
	var args struct {
		Label string `json:"label"`
	}
	if json.Unmarshal(call.Arguments, &args) == nil && args.Label != "" {
		return args.Label
	}
	return call.Name
}
