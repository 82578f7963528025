package anthropic

import (
	"log/slog"

	"github.com/mom-agent/mom/internal/llm"
)

// accumulator translates the Messages API's stream events into the message builder's calls.
type accumulator struct {
	*llm.Builder
	// index maps the API's content block index to the block's position in the message;
	// blocks mom does not keep (server tool results, …) have no entry.
	index      map[int64]int
	stopReason string
	refusal    string
	stopped    bool // message_stop arrived
}

func newAccumulator(model llm.Model, onEvent func(llm.StreamEvent), log *slog.Logger) *accumulator {
	return &accumulator{Builder: llm.NewBuilder(providerName, llm.APIAnthropic, model, onEvent, log), index: map[int64]int{}}
}

func (a *accumulator) handle(ev streamEvent) {
	switch ev.Type {
	case "message_start":
		if ev.Message == nil {
			return
		}
		a.SetModel(ev.Message.Model)
		u := ev.Message.Usage
		a.Usage = llm.Usage{Input: count(u.InputTokens), Output: count(u.OutputTokens),
			CacheRead: count(u.CacheReadInputTokens), CacheWrite: count(u.CacheCreationInputTokens)}
	case "content_block_start":
		if ev.ContentBlock != nil {
			a.start(ev.Index, *ev.ContentBlock)
		}
	case "content_block_delta":
		if ev.Delta != nil {
			a.delta(ev.Index, *ev.Delta)
		}
	case "content_block_stop":
		if pos, ok := a.index[ev.Index]; ok {
			a.Settle(pos)
		}
	case "message_delta":
		if ev.Delta != nil {
			a.stopReason = ev.Delta.StopReason
			a.refusal = ev.Delta.StopDetails.Explanation
		}
		// The counts in message_delta are cumulative; input and cache counts are present
		// only in newer API versions, so they replace message_start's only when sent.
		if u := ev.Usage; u != nil {
			if u.OutputTokens != nil {
				a.Usage.Output = *u.OutputTokens
			}
			if u.InputTokens != nil {
				a.Usage.Input = *u.InputTokens
			}
			if u.CacheReadInputTokens != nil {
				a.Usage.CacheRead = *u.CacheReadInputTokens
			}
			if u.CacheCreationInputTokens != nil {
				a.Usage.CacheWrite = *u.CacheCreationInputTokens
			}
		}
	case "message_stop":
		a.stopped = true
	}
}

// count is a token count the server may leave out.
func count(n *int) int {
	if n == nil {
		return 0
	}
	return *n
}

func (a *accumulator) start(index int64, cb block) {
	var c llm.Content
	switch cb.Type {
	case "text":
		c = llm.Text(cb.Text)
	case "thinking":
		c = llm.Content{Type: llm.TypeThinking, Signature: cb.Signature}
		if cb.Thinking != nil {
			c.Thinking = *cb.Thinking
		}
	case "redacted_thinking":
		c = llm.Content{Type: llm.TypeThinking, Redacted: true, Signature: cb.Data}
	case "tool_use":
		c = llm.Content{Type: llm.TypeToolCall, ID: cb.ID, Name: cb.Name}
	default:
		return
	}
	a.index[index] = a.Start(c)
}

func (a *accumulator) delta(index int64, d eventDelta) {
	pos, ok := a.index[index]
	if !ok {
		return
	}
	switch d.Type {
	case "text_delta":
		a.AppendText(pos, d.Text)
	case "thinking_delta":
		a.AppendThinking(pos, d.Thinking)
	case "signature_delta":
		a.Block(pos).Signature += d.Signature
	case "input_json_delta":
		a.AppendArgs(pos, d.PartialJSON)
	}
}

// final returns the complete answer with its stop reason, usage and cost.
func (a *accumulator) final() *llm.Message {
	switch a.stopReason {
	case "max_tokens", "model_context_window_exceeded":
		return a.Finish(llm.StopLength, "")
	case "tool_use":
		return a.Finish(llm.StopToolUse, "")
	case "refusal":
		msg := "The model declined to answer."
		if a.refusal != "" {
			msg += " " + a.refusal
		}
		return a.Finish(llm.StopError, msg)
	}
	return a.Finish(llm.StopEnd, "") // end_turn, stop_sequence, pause_turn
}
