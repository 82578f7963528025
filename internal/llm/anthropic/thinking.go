package anthropic

import (
	"strconv"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// defaultMaxTokens caps answers of models the catalog does not know; every Claude model
// accepts it.
const defaultMaxTokens = 8192

// budget is the thinking budget for a level. Levels mom does not know get medium's budget.
func budget(level llm.ThinkingLevel) int {
	switch level {
	case llm.ThinkingLow:
		return 2048
	case llm.ThinkingHigh:
		return 16384
	}
	return 8192
}

// applyThinking sets max_tokens and the thinking configuration.
//
// Thinking is asked for only when the level is not off and the model reasons (or is unknown,
// when it is worth trying). Claude 4.6 and later (and the Mythos and Fable lines) take
// adaptive thinking with an effort level: Opus 4.7 and the 5 family reject the budget form
// with a 400, and 4.6 deprecates it. Older models get a token budget (low 2048, medium 8192,
// high 16384) that max_tokens must exceed: max_tokens is raised to budget+4096 when needed,
// capped by the model's limit, and when even that does not leave room the budget shrinks.
func applyThinking(p *messagesRequest, req *llm.Request) {
	m := req.Model
	maxTokens := req.MaxTokens
	if maxTokens <= 0 {
		maxTokens = m.MaxOutput
	}
	if maxTokens <= 0 {
		maxTokens = defaultMaxTokens
	}
	p.MaxTokens = maxTokens
	if req.Thinking == "" || req.Thinking == llm.ThinkingOff || (m.Known && !m.Reasoning) {
		return
	}
	if adaptive(m.ID) {
		p.Thinking = &thinking{Type: "adaptive", Display: "summarized"}
		p.OutputConfig = &outputConfig{Effort: effort(req.Thinking)}
		return
	}
	b := budget(req.Thinking)
	if maxTokens <= b {
		maxTokens = b + 4096
		if m.Known && m.MaxOutput > 0 && maxTokens > m.MaxOutput {
			maxTokens = m.MaxOutput
		}
	}
	if maxTokens <= b {
		b = maxTokens - 1024
	}
	p.MaxTokens = maxTokens
	if b < 1024 {
		return // no room for the smallest budget the API takes
	}
	p.Thinking = &thinking{Type: "enabled", BudgetTokens: b}
}

func effort(level llm.ThinkingLevel) string {
	switch level {
	case llm.ThinkingLow:
		return "low"
	case llm.ThinkingHigh:
		return "high"
	}
	return "medium"
}

// adaptive reports whether a model id names a Claude that takes adaptive thinking: version
// 4.6 or later ("claude-sonnet-4-6", "claude-opus-5", "claude-haiku-5-5"), or a line that
// started with it (Mythos, Fable). Old-style ids ("claude-3-7-sonnet-20250219") and dated
// 4.x ids ("claude-opus-4-20250514") are older models.
func adaptive(id string) bool {
	rest, ok := strings.CutPrefix(strings.ToLower(id), "claude-")
	if !ok {
		return false
	}
	parts := strings.Split(rest, "-")
	for i, part := range parts {
		major, err := strconv.Atoi(part)
		if err != nil || len(part) > 2 {
			continue
		}
		minor := 0
		if i+1 < len(parts) && len(parts[i+1]) <= 2 {
			minor, _ = strconv.Atoi(parts[i+1])
		}
		return major > 4 || (major == 4 && minor >= 6)
	}
	return strings.HasPrefix(rest, "mythos") || strings.HasPrefix(rest, "fable")
}
