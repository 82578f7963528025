package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/compact"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/session"
	"github.com/mom-agent/mom/internal/store"
)

// CompactionSettings say when a channel's context is compacted (see package compact). The
// zero value turns automatic compaction off; config.json turns it on by default.
type CompactionSettings struct {
	// Enabled turns on compaction after a turn that left the context fuller than the window
	// minus ReserveTokens, and the compact-and-retry recovery when the model refuses a request
	// as too long.
	Enabled bool
	// ReserveTokens and KeepRecentTokens are compact.Settings; zero means pi's defaults.
	ReserveTokens    int
	KeepRecentTokens int
}

func (c CompactionSettings) settings() compact.Settings {
	s := compact.Defaults()
	if c.ReserveTokens > 0 {
		s.ReserveTokens = c.ReserveTokens
	}
	if c.KeepRecentTokens > 0 {
		s.KeepRecentTokens = c.KeepRecentTokens
	}
	return s
}

// contextView is the conversation as the model is shown it: the session's context with the
// last pruning applied. The file keeps every tool result; pruning is only a view.
func contextView(sess *session.Session) []llm.Message {
	msgs := sess.Context()
	raw, ok := sess.LastCustom(compact.PruneType)
	if !ok {
		return msgs
	}
	var mark compact.PruneMark
	if json.Unmarshal(raw, &mark) != nil {
		return msgs
	}
	return compact.ApplyPrune(msgs, mark)
}

// autoCompaction reports whether the loop compacts by itself.
func (l *loop) autoCompaction() bool {
	return l.sess != nil && l.cfg.Compaction.Enabled
}

// compactIfFull is pi's threshold compaction, run after every successful turn: when the
// context holds more than the window minus the reserve, old tool results are pruned from
// view if that saves enough, and if that is not enough the context is compacted. A failed
// compaction is reported and the run goes on; overflow recovery is the next line of defence.
func (l *loop) compactIfFull(ctx context.Context) {
	if !l.autoCompaction() || ctx.Err() != nil {
		return
	}
	s, window := l.cfg.Compaction.settings(), l.cfg.Model.ContextWindow
	view := l.history()
	tokens := compact.EstimateContext(view)
	if !s.ShouldCompact(tokens, window) {
		return
	}
	if mark, ok := compact.PlanPrune(view, window); ok {
		if _, err := l.sess.AppendCustom(compact.PruneType, mark); err == nil {
			tokens -= mark.SavedTokens
			l.lastUsage = llm.Usage{Input: tokens} // agent_end reports the context as it now is
			if !s.ShouldCompact(tokens, window) {
				return
			}
		}
	}
	_, _ = l.compact(ctx, run.ReasonThreshold) // compaction_end carries any error
}

// recoverOverflow handles a request the model refused as too long (cause): it compacts the
// context and sends the request once more. It returns the retry's outcome, or an error that
// tells people plainly what went wrong.
func (l *loop) recoverOverflow(ctx context.Context, req *llm.Request, newHandler func() func(llm.StreamEvent), cause error) (*llm.Message, error) {
	if !l.autoCompaction() {
		return nil, fmt.Errorf("the conversation no longer fits the model's context window, and automatic compaction is off (\"compaction\" in config.json; `mom compact` shortens it by hand): %w", cause)
	}
	if _, err := l.compact(ctx, run.ReasonOverflow); err != nil {
		if errors.Is(err, compact.ErrNothingToCompact) {
			return nil, fmt.Errorf("the newest messages alone are too long for the model's context window, so compacting the conversation cannot help; send something shorter: %w", cause)
		}
		return nil, fmt.Errorf("the conversation no longer fits the model's context window, and compacting it failed (%v): %w", err, cause)
	}
	req.Messages = l.history()
	msg, err := l.streamWithRetry(ctx, req, newHandler)
	if llm.IsOverflow(err) {
		return msg, fmt.Errorf("the conversation is still too long for the model's context window after compacting it; send something shorter, or lower compaction.keepRecentTokens in config.json: %w", err)
	}
	return msg, err
}

// compact summarizes the old part of the context and appends the compaction entry, telling
// people with compaction_start and compaction_end. ErrNothingToCompact comes back without
// events: there was nothing to do.
func (l *loop) compact(ctx context.Context, reason string) (run.CompactionInfo, error) {
	return l.compactFocused(ctx, reason, "")
}

// compactFocused is compact with the summary told what to keep above all.
func (l *loop) compactFocused(ctx context.Context, reason, focus string) (run.CompactionInfo, error) {
	s, window := l.cfg.Compaction.settings(), l.cfg.Model.ContextWindow
	plan, err := compact.Prepare(l.sess.Entries(), s, window)
	if err != nil {
		return run.CompactionInfo{Reason: reason}, err
	}
	plan.Focus = focus
	info := run.CompactionInfo{Reason: reason, TokensBefore: plan.TokensBefore, Kept: plan.Kept}
	l.emit(run.Event{Type: run.CompactionStart, Compaction: &run.CompactionInfo{Reason: reason}})
	res, err := compact.Summarize(ctx, summarizer{l}, plan, s)
	if err == nil {
		_, err = l.sess.AppendCompaction(res.Summary, plan.FirstKeptID, plan.TokensBefore, res.Details)
	}
	if err != nil {
		end := info
		l.emit(run.Event{Type: run.CompactionEnd, Compaction: &end, ErrorMessage: err.Error()})
		return info, err
	}
	info.Summary = res.Summary
	info.TokensAfter = compact.ContextTokens(l.sess.Entries())
	l.lastUsage = llm.Usage{Input: info.TokensAfter} // agent_end reports the context as it now is
	end := info
	l.emit(run.Event{Type: run.CompactionEnd, Compaction: &end})
	return info, nil
}

// summarizer asks the conversation's own model for summaries, with the run's retry policy.
type summarizer struct{ l *loop }

func (s summarizer) Summarize(ctx context.Context, system, prompt string, maxTokens int) (string, error) {
	l := s.l
	if out := l.cfg.Model.MaxOutput; out > 0 && maxTokens > out {
		maxTokens = out
	}
	req := &llm.Request{
		Model: l.cfg.Model, System: system, Thinking: llm.ThinkingOff, MaxTokens: maxTokens,
		Messages: []llm.Message{llm.NewUserText(prompt, time.Now())},
	}
	quiet := func() func(llm.StreamEvent) { return func(llm.StreamEvent) {} }
	msg, err := l.streamWithRetry(ctx, req, quiet)
	if err != nil {
		return "", err
	}
	l.usage = l.usage.Add(msg.Usage) // summaries are paid for like answers
	return msg.Text(), nil
}

// Compact compacts a channel's context now, whatever its size and whether or not automatic
// compaction is on (the `mom compact` command, and `/compact` in the chat; pi's /compact),
// with the channel's model (model names an entry of Options.Models; "" is the default),
// telling the summary what to keep above all when focus is set. sink, if not nil, receives
// compaction_start and compaction_end. It fails with ErrBusy while the channel has a run, and
// with compact.ErrNothingToCompact when the context is already as small as compaction would
// make it.
func (a *Agent) Compact(ctx context.Context, ch *store.ChannelDir, model, focus string, sink run.Sink) (run.CompactionInfo, error) {
	key := ch.Key()
	if _, ok := llm.OriginOf(ctx); !ok {
		// The summary is paid for by the channel, and capped with its spend.
		ctx = llm.WithOrigin(ctx, llm.Origin{Adapter: ch.Adapter(), Channel: ch.ID()})
	}
	ctx, active, err := a.begin(ctx, key)
	if err != nil {
		return run.CompactionInfo{}, err
	}
	defer a.end(key, active)
	cfg, hint := a.runConfig(model)
	if cfg.Provider == nil {
		return run.CompactionInfo{}, errors.New(hint)
	}
	sess, err := ch.Session()
	if err != nil {
		return run.CompactionInfo{}, err
	}
	l := &loop{cfg: &cfg, sess: sess, sink: sink, history: func() []llm.Message { return contextView(sess) }}
	info, err := l.compactFocused(ctx, run.ReasonManual, focus)
	if serr := sess.Sync(); err == nil && serr != nil {
		err = fmt.Errorf("could not flush context.jsonl: %w", serr)
	}
	return info, err
}
