package openai

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"

	sdk "github.com/openai/openai-go/v3"

	"github.com/mom-agent/mom/internal/llm"
)

// accumulator builds the assistant message from chunks and reports each piece.
type accumulator struct {
	model   llm.Model
	onEvent func(llm.StreamEvent)
	log     *slog.Logger
	msg     llm.Message
	// calls maps a tool call's stream index to its position in msg.Content.
	calls  map[int64]int
	args   map[int]*strings.Builder
	finish string
	usage  llm.Usage
}

func newAccumulator(model llm.Model, onEvent func(llm.StreamEvent), log *slog.Logger) *accumulator {
	return &accumulator{
		model: model, onEvent: onEvent, log: log,
		msg: llm.Message{
			Role: llm.RoleAssistant, API: llm.APIOpenAI, Provider: providerName, Model: model.ID,
			Timestamp: time.Now().UnixMilli(), Content: []llm.Content{},
		},
		calls: map[int64]int{}, args: map[int]*strings.Builder{},
	}
}

func (a *accumulator) handle(ch sdk.ChatCompletionChunk) {
	if ch.Model != "" {
		a.msg.Model = ch.Model
	}
	if ch.JSON.Usage.Valid() {
		u := ch.Usage
		cached := int(u.PromptTokensDetails.CachedTokens)
		written := int(u.PromptTokensDetails.CacheWriteTokens)
		a.usage = llm.Usage{
			Input: max(0, int(u.PromptTokens)-cached-written), Output: int(u.CompletionTokens),
			CacheRead: cached, CacheWrite: written,
		}
	}
	for _, c := range ch.Choices {
		if c.Index != 0 {
			continue // mom asks for one choice
		}
		a.delta(c.Delta)
		if c.FinishReason != "" {
			a.finish = c.FinishReason
		}
	}
}

func (a *accumulator) delta(d sdk.ChatCompletionChunkChoiceDelta) {
	if s := reasoning(d); s != "" {
		a.appendBlock(llm.TypeThinking, s)
	}
	if d.Content != "" {
		a.appendBlock(llm.TypeText, d.Content)
	}
	if d.Refusal != "" {
		a.appendBlock(llm.TypeText, d.Refusal)
	}
	for _, tc := range d.ToolCalls {
		a.toolCall(tc)
	}
}

// reasoning returns the reasoning text of a delta from the non-standard fields compatible
// servers use: reasoning_content (DeepSeek, vLLM, llama.cpp, Qwen) or reasoning (OpenRouter,
// Ollama, newer vLLM). Servers that send both repeat the same text, so only the first counts.
func reasoning(d sdk.ChatCompletionChunkChoiceDelta) string {
	for _, f := range [...]string{"reasoning_content", "reasoning"} {
		raw, ok := d.JSON.ExtraFields[f]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal([]byte(raw.Raw()), &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// appendBlock adds text or reasoning to the last block when it is of the same type, and
// starts a new block otherwise.
func (a *accumulator) appendBlock(typ llm.ContentType, s string) {
	n := len(a.msg.Content)
	if n == 0 || a.msg.Content[n-1].Type != typ {
		a.msg.Content = append(a.msg.Content, llm.Content{Type: typ})
		n++
	}
	c := &a.msg.Content[n-1]
	ev := llm.StreamEvent{Index: n - 1, Delta: s}
	if typ == llm.TypeThinking {
		c.Thinking += s
		ev.Type = llm.EventThinkingDelta
	} else {
		c.Text += s
		ev.Type = llm.EventTextDelta
	}
	a.onEvent(ev)
}

// toolCall follows one tool call through its chunks: the first names it (id and function
// name), the rest carry argument fragments. Servers that send a whole call in one chunk
// are handled the same way, and so are servers that give every call index 0: a new id at
// a known index starts a new call.
func (a *accumulator) toolCall(tc sdk.ChatCompletionChunkChoiceDeltaToolCall) {
	pos, ok := a.calls[tc.Index]
	if ok && tc.ID != "" && tc.ID != a.msg.Content[pos].ID {
		ok = false
	}
	if !ok {
		pos = len(a.msg.Content)
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", a.msg.Timestamp, pos)
		}
		a.msg.Content = append(a.msg.Content, llm.Content{Type: llm.TypeToolCall, ID: id, Name: tc.Function.Name})
		a.calls[tc.Index] = pos
		a.args[pos] = &strings.Builder{}
		a.onEvent(llm.StreamEvent{Type: llm.EventToolCallStart, Index: pos, ToolCallID: id, ToolName: tc.Function.Name})
	} else if c := &a.msg.Content[pos]; c.Name == "" && tc.Function.Name != "" {
		c.Name = tc.Function.Name
	}
	if frag := tc.Function.Arguments; frag != "" {
		a.args[pos].WriteString(frag)
		a.onEvent(llm.StreamEvent{Type: llm.EventToolCallDelta, Index: pos, Delta: frag})
	}
}

// settle parses the tool calls' arguments. Arguments that are not a JSON object become {} so
// the tool's own validation tells the model what is missing; the raw text is logged, because
// it is the only trace of what the model actually sent.
func (a *accumulator) settle() {
	for pos, b := range a.args {
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
	clear(a.args)
}

// final returns the complete answer with its stop reason, usage and cost. Some servers
// (older Ollama) report "stop" for an answer that calls tools; the calls decide.
func (a *accumulator) final() *llm.Message {
	a.settle()
	m := a.msg
	m.Usage = a.model.Price.Apply(a.usage)
	switch a.finish {
	case "length":
		m.StopReason = llm.StopLength
	case "tool_calls", "function_call":
		m.StopReason = llm.StopToolUse
	case "content_filter":
		m.StopReason = llm.StopError
		m.ErrorMessage = "The provider's content filter stopped the answer."
	default:
		m.StopReason = llm.StopEnd
	}
	if m.StopReason == llm.StopEnd && len(m.ToolCalls()) > 0 {
		m.StopReason = llm.StopToolUse
	}
	return &m
}

// partial returns what arrived of an answer that failed or was aborted.
func (a *accumulator) partial(reason llm.StopReason, errMsg string) *llm.Message {
	a.settle()
	m := a.msg
	m.Usage = a.model.Price.Apply(a.usage)
	m.StopReason, m.ErrorMessage = reason, errMsg
	return &m
}
