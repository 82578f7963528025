package openai

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/mom-agent/mom/internal/llm"
)

// buildParams converts a request into the body of a streamed chat completion.
//
// Usage is always asked for (stream_options.include_usage), or a streamed answer has none.
// A token cap is sent only when the request sets one: as max_completion_tokens to a model the
// catalog knows (OpenAI's reasoning models reject max_tokens) and as max_tokens to any other,
// which older compatible servers understand. reasoning_effort is sent when thinking is on and
// the model reasons or is unknown; servers that do not know it ignore it.
func buildParams(req *llm.Request) chatRequest {
	p := chatRequest{
		Model:         req.Model.ID,
		Messages:      convertMessages(req.System, llm.Prepare(req.Messages)),
		Stream:        true,
		StreamOptions: streamOptions{IncludeUsage: true},
	}
	for _, t := range req.Tools {
		p.Tools = append(p.Tools, tool{Type: "function", Function: functionDef{
			Name: t.Name, Description: t.Description, Parameters: schema(t.Parameters)}})
	}
	if n := req.MaxTokens; n > 0 {
		if req.Model.Known {
			p.MaxCompletionTokens = n
		} else {
			p.MaxTokens = n
		}
	}
	if req.Thinking != "" && req.Thinking != llm.ThinkingOff && (req.Model.Reasoning || !req.Model.Known) {
		p.ReasoningEffort = effort(req.Thinking)
	}
	return p
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

// emptySchema is what a tool without a usable schema is offered with: no parameters.
const emptySchema = `{"type":"object","properties":{}}`

// schema returns a tool's JSON schema when it is a JSON object, and emptySchema otherwise.
func schema(raw json.RawMessage) json.RawMessage {
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' && json.Valid(t) {
		return t
	}
	return json.RawMessage(emptySchema)
}

// convertMessages turns the system prompt and mom's messages into chat messages. Reasoning
// is not sent back: Chat Completions has no field for it, and servers that emit it
// (DeepSeek) reject it on input.
func convertMessages(system string, msgs []llm.Message) []chatMessage {
	var out []chatMessage
	if system != "" {
		out = append(out, chatMessage{Role: "system", Content: system})
	}
	for _, m := range msgs {
		switch m.Role {
		case llm.RoleUser:
			if u, ok := userMessage(m.Content); ok {
				out = append(out, u)
			}
		case llm.RoleAssistant:
			if a, ok := assistantMessage(m.Content); ok {
				out = append(out, a)
			}
		case llm.RoleToolResult:
			out = append(out, chatMessage{Role: "tool", Content: toolResultText(m.Content), ToolCallID: m.ToolCallID})
		}
	}
	return out
}

// userMessage sends plain text as a string, which every compatible server understands, and
// switches to content parts only when there are images.
func userMessage(content []llm.Content) (chatMessage, bool) {
	var texts []string
	var parts []contentPart
	images := false
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				texts = append(texts, c.Text)
				parts = append(parts, contentPart{Type: "text", Text: c.Text})
			}
		case llm.TypeImage:
			images = true
			parts = append(parts, contentPart{Type: "image_url", ImageURL: &imageURL{URL: "data:" + c.MimeType + ";base64," + c.Data}})
		}
	}
	switch {
	case images:
		return chatMessage{Role: "user", Content: parts}, true
	case len(texts) > 0:
		return chatMessage{Role: "user", Content: strings.Join(texts, "\n\n")}, true
	}
	return chatMessage{}, false
}

func assistantMessage(content []llm.Content) (chatMessage, bool) {
	var texts []string
	a := chatMessage{Role: "assistant"}
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if strings.TrimSpace(c.Text) != "" {
				texts = append(texts, c.Text)
			}
		case llm.TypeToolCall:
			args := string(c.Arguments)
			if !json.Valid(c.Arguments) {
				args = "{}"
			}
			a.ToolCalls = append(a.ToolCalls, toolCall{ID: c.ID, Type: "function", Function: functionCall{Name: c.Name, Arguments: args}})
		}
	}
	if len(texts) == 0 && len(a.ToolCalls) == 0 {
		return chatMessage{}, false
	}
	if len(texts) > 0 {
		a.Content = strings.Join(texts, "\n\n")
	}
	return a, true
}

// toolResultText flattens a tool result to text: Chat Completions takes no images in tool
// messages, so each image is named instead of sent.
func toolResultText(content []llm.Content) string {
	var parts []string
	for _, c := range content {
		switch c.Type {
		case llm.TypeText:
			if c.Text != "" {
				parts = append(parts, c.Text)
			}
		case llm.TypeImage:
			parts = append(parts, "(image omitted: "+c.MimeType+")")
		}
	}
	return strings.Join(parts, "\n")
}
