package openai

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

// accumulator translates Chat Completions chunks into the message builder's calls.
type accumulator struct {
	*llm.Builder
	// calls maps a tool call's stream index to its position in the message.
	calls  map[int64]int
	finish string
}

func newAccumulator(model llm.Model, onEvent func(llm.StreamEvent), log *slog.Logger) *accumulator {
	return &accumulator{Builder: llm.NewBuilder(providerName, llm.APIOpenAI, model, onEvent, log), calls: map[int64]int{}}
}

func (a *accumulator) handle(ch chunk) {
	a.SetModel(ch.Model)
	if u := ch.Usage; u != nil {
		cached := u.PromptTokensDetails.CachedTokens
		written := u.PromptTokensDetails.CacheWriteTokens
		a.Usage = llm.Usage{
			Input: max(0, u.PromptTokens-cached-written), Output: u.CompletionTokens,
			CacheRead: cached, CacheWrite: written,
		}
	}
	for _, c := range ch.Choices {
		if c.Index != 0 {
			continue // mom asks for one choice
		}
		if c.Message != nil {
			c.Delta = *c.Message // a whole completion from a server that does not stream
		}
		a.delta(c.Delta)
		if c.FinishReason != "" {
			a.finish = c.FinishReason
		}
	}
}

func (a *accumulator) delta(d delta) {
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
func reasoning(d delta) string {
	for _, raw := range [...]json.RawMessage{d.ReasoningContent, d.Reasoning} {
		var s string
		if json.Unmarshal(raw, &s) == nil && s != "" {
			return s
		}
	}
	return ""
}

// appendBlock adds text or reasoning to the last block when it is of the same type, and
// starts a new block otherwise: the protocol has no block boundaries of its own.
func (a *accumulator) appendBlock(typ llm.ContentType, s string) {
	n := a.Len()
	if n == 0 || a.Block(n-1).Type != typ {
		a.Start(llm.Content{Type: typ, Text: s, Thinking: s})
		return
	}
	if typ == llm.TypeThinking {
		a.AppendThinking(n-1, s)
	} else {
		a.AppendText(n-1, s)
	}
}

// toolCall follows one tool call through its chunks: the first names it (id and function
// name), the rest carry argument fragments. Servers that send a whole call in one chunk
// are handled the same way, and so are servers that give every call index 0: a new id at
// a known index starts a new call.
func (a *accumulator) toolCall(tc deltaToolCall) {
	pos, ok := a.calls[tc.Index]
	if ok && tc.ID != "" && tc.ID != a.Block(pos).ID {
		ok = false
	}
	if !ok {
		id := tc.ID
		if id == "" {
			id = fmt.Sprintf("call_%d_%d", time.Now().UnixMilli(), a.Len())
		}
		pos = a.Start(llm.Content{Type: llm.TypeToolCall, ID: id, Name: tc.Function.Name})
		a.calls[tc.Index] = pos
	} else if c := a.Block(pos); c.Name == "" && tc.Function.Name != "" {
		c.Name = tc.Function.Name
	}
	a.AppendArgs(pos, tc.Function.Arguments)
}

// final returns the complete answer with its stop reason, usage and cost. Some servers
// (older Ollama) report "stop" for an answer that calls tools; the calls decide.
func (a *accumulator) final() *llm.Message {
	switch a.finish {
	case "length":
		return a.Finish(llm.StopLength, "")
	case "content_filter":
		return a.Finish(llm.StopError, "The provider's content filter stopped the answer.")
	}
	m := a.Finish(llm.StopEnd, "")
	if a.finish == "tool_calls" || a.finish == "function_call" || len(m.ToolCalls()) > 0 {
		m.StopReason = llm.StopToolUse
	}
	return m
}
