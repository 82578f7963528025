package fakellm

import (
	"fmt"
	"strings"
)

// validateAnthropic checks the conversation rules of the Messages API, with the wording of
// its invalid_request_error messages. Block-level problems were found while decoding.
func validateAnthropic(r *Request, body *aRequest) string {
	switch {
	case body.Model == nil || *body.Model == "":
		return "model: Field required"
	case body.MaxTokens == nil:
		return "max_tokens: Field required"
	case *body.MaxTokens < 1:
		return "max_tokens: Input should be greater than or equal to 1"
	case body.Messages == nil:
		return "messages: Field required"
	case len(r.Messages) == 0:
		return "messages: at least one message is required"
	}
	if p := validateThinking(body); p != "" {
		return p
	}
	if r.CacheMarkers > 4 {
		return fmt.Sprintf("A maximum of 4 blocks with cache_control may be provided. Found %d.", r.CacheMarkers)
	}
	msgs := r.Messages
	if msgs[0].Role != "user" {
		return `messages: first message must use the "user" role`
	}
	for i, m := range msgs {
		if m.Role != "user" && m.Role != "assistant" {
			return fmt.Sprintf("messages.%d.role: Input should be 'user' or 'assistant'", i)
		}
		if i > 0 && msgs[i-1].Role == m.Role {
			return fmt.Sprintf(`messages: roles must alternate between "user" and "assistant", but found multiple "%s" roles in a row`, m.Role)
		}
		if len(m.Content) == 0 && !(i == len(msgs)-1 && m.Role == "assistant") {
			return fmt.Sprintf("messages.%d: all messages must have non-empty content except for the optional final assistant message", i)
		}
		if p := validateToolPairs(msgs, i); p != "" {
			return p
		}
	}
	return ""
}

func validateThinking(body *aRequest) string {
	t := body.Thinking
	if t == nil || t.Type != "enabled" {
		return ""
	}
	if t.BudgetTokens < 1024 {
		return "thinking.enabled.budget_tokens: Input should be greater than or equal to 1024"
	}
	if *body.MaxTokens <= t.BudgetTokens {
		return "`max_tokens` must be greater than `thinking.budget_tokens`. Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking#max-tokens-and-context-window-size"
	}
	return ""
}

// validateToolPairs checks message i against its neighbours: every tool_use of an assistant
// message is answered in the next message, every tool_result answers a tool_use of the
// previous one, and tool results come before anything else in their message.
func validateToolPairs(msgs []Message, i int) string {
	m := msgs[i]
	if m.Role == "assistant" {
		var missing []string
		for _, b := range m.Content {
			if b.Type == "tool_use" && !hasResult(msgs, i+1, b.ID) {
				missing = append(missing, b.ID)
			}
		}
		if len(missing) > 0 {
			return fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, strings.Join(missing, ", "))
		}
		return ""
	}
	seenOther := false
	for j, b := range m.Content {
		if b.Type != "tool_result" {
			seenOther = true
			continue
		}
		if seenOther {
			return fmt.Sprintf("messages.%d.content.%d: `tool_result` blocks must come before any other content in a user message", i, j)
		}
		if i == 0 || !hasUse(msgs[i-1], b.ToolUseID) {
			return fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
		}
	}
	return ""
}

func hasResult(msgs []Message, i int, id string) bool {
	if i >= len(msgs) || msgs[i].Role != "user" {
		return false
	}
	for _, b := range msgs[i].Content {
		if b.Type == "tool_result" && b.ToolUseID == id {
			return true
		}
	}
	return false
}

func hasUse(m Message, id string) bool {
	if m.Role != "assistant" {
		return false
	}
	for _, b := range m.Content {
		if b.Type == "tool_use" && b.ID == id {
			return true
		}
	}
	return false
}
