package anthropic

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"strings"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mom-agent/mom/internal/llm"
)

// accumulator builds the assistant message from stream events and reports each piece.
type accumulator struct {
	model   llm.Model
	onEvent func(llm.StreamEvent)
	log     *slog.Logger
	msg     llm.Message
	// index maps the API's content block index to the block's position in msg.Content;
	// blocks mom does not keep (server tool results, …) have no entry.
	index map[int64]int
	// args collects each tool call's argument JSON by position in msg.Content.
	args       map[int]*strings.Builder
	stopReason sdk.StopReason
	refusal    string
	usage      llm.Usage
	stopped    bool // message_stop arrived
}

func newAccumulator(model llm.Model, onEvent func(llm.StreamEvent), log *slog.Logger) *accumulator {
	return &accumulator{
		model: model, onEvent: onEvent, log: log,
		msg: llm.Message{
			Role: llm.RoleAssistant, API: llm.APIAnthropic, Provider: providerName, Model: model.ID,
			Timestamp: time.Now().UnixMilli(), Content: []llm.Content{},
		},
		index: map[int64]int{}, args: map[int]*strings.Builder{},
	}
}

func (a *accumulator) handle(ev sdk.MessageStreamEventUnion) {
	switch ev.Type {
	case "message_start":
		m := ev.AsMessageStart().Message
		if m.Model != "" {
			a.msg.Model = m.Model
		}
		u := m.Usage
		a.usage = llm.Usage{Input: int(u.InputTokens), Output: int(u.OutputTokens),
			CacheRead: int(u.CacheReadInputTokens), CacheWrite: int(u.CacheCreationInputTokens)}
	case "content_block_start":
		a.start(ev.AsContentBlockStart())
	case "content_block_delta":
		a.delta(ev.AsContentBlockDelta())
	case "content_block_stop":
		a.stop(ev.Index)
	case "message_delta":
		d := ev.AsMessageDelta()
		a.stopReason = d.Delta.StopReason
		a.refusal = d.Delta.StopDetails.Explanation
		// The counts in message_delta are cumulative; input and cache counts are present
		// only in newer API versions, so they replace message_start's only when sent.
		u := d.Usage
		a.usage.Output = int(u.OutputTokens)
		if u.JSON.InputTokens.Valid() {
			a.usage.Input = int(u.InputTokens)
		}
		if u.JSON.CacheReadInputTokens.Valid() {
			a.usage.CacheRead = int(u.CacheReadInputTokens)
		}
		if u.JSON.CacheCreationInputTokens.Valid() {
			a.usage.CacheWrite = int(u.CacheCreationInputTokens)
		}
	case "message_stop":
		a.stopped = true
	}
}

func (a *accumulator) start(ev sdk.ContentBlockStartEvent) {
	cb := ev.ContentBlock
	pos := len(a.msg.Content)
	switch cb.Type {
	case "text":
		a.msg.Content = append(a.msg.Content, llm.Text(cb.Text))
	case "thinking":
		a.msg.Content = append(a.msg.Content, llm.Content{Type: llm.TypeThinking, Thinking: cb.Thinking, Signature: cb.Signature})
	case "redacted_thinking":
		a.msg.Content = append(a.msg.Content, llm.Content{Type: llm.TypeThinking, Redacted: true, Signature: cb.Data})
	case "tool_use":
		a.msg.Content = append(a.msg.Content, llm.Content{Type: llm.TypeToolCall, ID: cb.ID, Name: cb.Name})
		a.args[pos] = &strings.Builder{}
		a.onEvent(llm.StreamEvent{Type: llm.EventToolCallStart, Index: pos, ToolCallID: cb.ID, ToolName: cb.Name})
	default:
		return
	}
	a.index[ev.Index] = pos
	if cb.Type == "text" && cb.Text != "" {
		a.onEvent(llm.StreamEvent{Type: llm.EventTextDelta, Index: pos, Delta: cb.Text})
	}
}

func (a *accumulator) delta(ev sdk.ContentBlockDeltaEvent) {
	pos, ok := a.index[ev.Index]
	if !ok {
		return
	}
	c := &a.msg.Content[pos]
	d := ev.Delta
	switch d.Type {
	case "text_delta":
		c.Text += d.Text
		a.onEvent(llm.StreamEvent{Type: llm.EventTextDelta, Index: pos, Delta: d.Text})
	case "thinking_delta":
		c.Thinking += d.Thinking
		a.onEvent(llm.StreamEvent{Type: llm.EventThinkingDelta, Index: pos, Delta: d.Thinking})
	case "signature_delta":
		c.Signature += d.Signature
	case "input_json_delta":
		if b := a.args[pos]; b != nil && d.PartialJSON != "" {
			b.WriteString(d.PartialJSON)
			a.onEvent(llm.StreamEvent{Type: llm.EventToolCallDelta, Index: pos, Delta: d.PartialJSON})
		}
	}
}

// stop settles a finished tool call's arguments.
func (a *accumulator) stop(index int64) {
	if pos, ok := a.index[index]; ok {
		a.settle(pos)
	}
}

// settle parses a tool call's collected arguments. Arguments that are not a JSON object
// become {} so the tool's own validation tells the model what is missing; the raw text is
// logged, because it is the only trace of what the model actually sent.
func (a *accumulator) settle(pos int) {
	b := a.args[pos]
	if b == nil {
		return
	}
	delete(a.args, pos)
	c := &a.msg.Content[pos]
	raw := bytes.TrimSpace([]byte(b.String()))
	switch {
	case len(raw) == 0:
		c.Arguments = json.RawMessage("{}")
	case raw[0] == '{' && json.Valid(raw):
		c.Arguments = json.RawMessage(raw)
	default:
		c.Arguments = json.RawMessage("{}")
		a.log.Warn("the model sent tool arguments that are not a JSON object; the tool gets {}",
			"provider", providerName, "model", a.msg.Model, "tool", c.Name, "call", c.ID, "arguments", string(raw))
	}
}

func (a *accumulator) settleAll() {
	for pos := range a.args {
		a.settle(pos)
	}
}

// final returns the complete answer with its stop reason, usage and cost.
func (a *accumulator) final() *llm.Message {
	a.settleAll()
	m := a.msg
	m.Usage = a.model.Price.Apply(a.usage)
	switch a.stopReason {
	case sdk.StopReasonMaxTokens, sdk.StopReasonModelContextWindowExceeded:
		m.StopReason = llm.StopLength
	case sdk.StopReasonToolUse:
		m.StopReason = llm.StopToolUse
	case sdk.StopReasonRefusal:
		m.StopReason = llm.StopError
		m.ErrorMessage = "The model declined to answer."
		if a.refusal != "" {
			m.ErrorMessage += " " + a.refusal
		}
	default: // end_turn, stop_sequence, pause_turn
		m.StopReason = llm.StopEnd
	}
	return &m
}

// partial returns what arrived of an answer that failed or was aborted.
func (a *accumulator) partial(reason llm.StopReason, errMsg string) *llm.Message {
	a.settleAll()
	m := a.msg
	m.Usage = a.model.Price.Apply(a.usage)
	m.StopReason, m.ErrorMessage = reason, errMsg
	return &m
}
