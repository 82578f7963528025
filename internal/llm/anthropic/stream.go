package anthropic

import (
	"log/slog"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mom-agent/mom/internal/llm"
)

// accumulator translates the Messages API's stream events into the message builder's calls.
type accumulator struct {
	*llm.Builder
	// index maps the API's content block index to the block's position in the message;
	// blocks mom does not keep (server tool results, …) have no entry.
	index      map[int64]int
	stopReason sdk.StopReason
	refusal    string
	stopped    bool // message_stop arrived
}

func newAccumulator(model llm.Model, onEvent func(llm.StreamEvent), log *slog.Logger) *accumulator {
	return &accumulator{Builder: llm.NewBuilder(providerName, llm.APIAnthropic, model, onEvent, log), index: map[int64]int{}}
}

func (a *accumulator) handle(ev sdk.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		m := ev.AsMessageStart().Message
		a.SetModel(m.Model)
		u := m.Usage
		a.Usage = llm.Usage{Input: int(u.InputTokens), Output: int(u.OutputTokens),
			CacheRead: int(u.CacheReadInputTokens), CacheWrite: int(u.CacheCreationInputTokens)}
	case "content_block_start":
		a.start(ev.AsContentBlockStart())
	case "content_block_delta":
		a.delta(ev.AsContentBlockDelta())
	case "content_block_stop":
		if pos, ok := a.index[ev.Index]; ok {
			a.Settle(pos)
		}
	case "message_delta":
		d := ev.AsMessageDelta()
		a.stopReason = d.Delta.StopReason
		a.refusal = d.Delta.StopDetails.Explanation
		// The counts in message_delta are cumulative; input and cache counts are present
		// only in newer API versions, so they replace message_start's only when sent.
		u := d.Usage
		a.Usage.Output = int(u.OutputTokens)
		if u.JSON.InputTokens.Valid() {
			a.Usage.Input = int(u.InputTokens)
		}
		if u.JSON.CacheReadInputTokens.Valid() {
			a.Usage.CacheRead = int(u.CacheReadInputTokens)
		}
		if u.JSON.CacheCreationInputTokens.Valid() {
			a.Usage.CacheWrite = int(u.CacheCreationInputTokens)
		}
	case "message_stop":
		a.stopped = true
	}
}

func (a *accumulator) start(ev sdk.ContentBlockStartEvent) {
	cb := ev.ContentBlock
	var c llm.Content
	switch cb.Type {
	case "text":
		c = llm.Text(cb.Text)
	case "thinking":
		c = llm.Content{Type: llm.TypeThinking, Thinking: cb.Thinking, Signature: cb.Signature}
	case "redacted_thinking":
		c = llm.Content{Type: llm.TypeThinking, Redacted: true, Signature: cb.Data}
	case "tool_use":
		c = llm.Content{Type: llm.TypeToolCall, ID: cb.ID, Name: cb.Name}
	default:
		return
	}
	a.index[ev.Index] = a.Start(c)
}

func (a *accumulator) delta(ev sdk.ContentBlockDeltaEvent) {
	pos, ok := a.index[ev.Index]
	if !ok {
		return
	}
	d := ev.Delta
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
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		return a.Finish(llm.StopLength, "")
	case sdk.StopReasonToolUse:
		return a.Finish(llm.StopToolUse, "")
	case sdk.StopReasonRefusal:
		msg := "The model declined to answer."
		if a.refusal != "" {
			msg += " " + a.refusal
		}
		return a.Finish(llm.StopError, msg)
	}
	return a.Finish(llm.StopEnd, "") // end_turn, stop_sequence, pause_turn
}
