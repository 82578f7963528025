package compact

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

// imageChars is what an image counts as: 4,800 characters, about 1,200 tokens, as in pi. Its
// base64 size says nothing about what the model is charged for it.
const imageChars = 4800

// EstimateTokens guesses how many tokens a message takes without a tokenizer, as pi does:
// its characters divided by four, rounded up. Text, reasoning and tool calls (name and
// arguments) count; images count as about 1,200 tokens each.
func EstimateTokens(m llm.Message) int {
	chars := 0
	for _, c := range m.Content {
		switch c.Type {
		case llm.TypeText:
			chars += utf8.RuneCountInString(c.Text)
		case llm.TypeThinking:
			chars += utf8.RuneCountInString(c.Thinking)
		case llm.TypeToolCall:
			chars += utf8.RuneCountInString(c.Name) + utf8.RuneCount(c.Arguments)
		case llm.TypeImage:
			chars += imageChars
		}
	}
	return (chars + 3) / 4
}

// EstimateContext says how many tokens the context msgs fills, as pi's estimateContextTokens
// does: the usage the model reported for the last answer (which covers the system prompt, the
// tools and everything up to that answer) plus an estimate of the messages after it. Without
// a usable answer it is the estimate of every message.
//
// The caller must not pass a context whose last answer predates a compaction: that answer's
// usage measured the context before the summary replaced it. ContextTokens knows the entries
// and takes care of that.
func EstimateContext(msgs []llm.Message) int {
	trailing := 0
	for i := len(msgs) - 1; i >= 0; i-- {
		if u, ok := usageOf(msgs[i]); ok {
			return u + trailing
		}
		trailing += sentTokens(msgs[i])
	}
	return trailing
}

// ContextTokens says how many tokens the context of a session branch (root first) fills. It
// is EstimateContext made safe for compactions and prunings: usage reported before the last
// compaction is not trusted (the summary and the kept messages are estimated instead), and
// the tokens a later pruning saved are taken off.
func ContextTokens(entries []session.Entry) int {
	trailing, saved := 0, 0
	for i := len(entries) - 1; i >= 0; i-- {
		e := &entries[i]
		switch {
		case e.Type == session.TypeCompaction:
			trailing += EstimateTokens(session.SummaryMessage(e.Summary, e.Time))
			for _, k := range keptEntries(entries[:i], e.FirstKeptID) {
				if m, ok := k.AsMessage(); ok {
					trailing += sentTokens(m)
				}
			}
			return max(0, trailing-saved)
		case e.Type == session.TypeCustom && e.CustomType == PruneType:
			var mark PruneMark
			if json.Unmarshal(e.Data, &mark) == nil {
				saved += mark.SavedTokens
			}
			continue
		}
		m, ok := e.AsMessage()
		if !ok {
			continue
		}
		if u, ok := usageOf(m); ok {
			return max(0, u+trailing-saved)
		}
		trailing += sentTokens(m)
	}
	return max(0, trailing-saved)
}

// keptEntries returns the entries from the one with id firstKept on, or none when it is not
// among them.
func keptEntries(entries []session.Entry, firstKept string) []session.Entry {
	for i := range entries {
		if entries[i].ID == firstKept {
			return entries[i:]
		}
	}
	return nil
}

// usageOf returns the context size an answer reported, if it is an answer that counts: a
// failed or aborted one may not have reached the model at all.
func usageOf(m llm.Message) (int, bool) {
	if m.Role != llm.RoleAssistant || failed(m) {
		return 0, false
	}
	u := m.Usage.ContextTokens()
	return u, u > 0
}

// sentTokens is the estimate of what of m is sent to the model: failed and aborted answers
// are dropped before sending (llm.Prepare).
func sentTokens(m llm.Message) int {
	if m.Role == llm.RoleAssistant && failed(m) {
		return 0
	}
	return EstimateTokens(m)
}

func failed(m llm.Message) bool {
	return m.StopReason == llm.StopError || m.StopReason == llm.StopAborted
}
