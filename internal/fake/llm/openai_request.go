package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// oRequest is the part of a Chat Completions request body the fake reads.
type oRequest struct {
	Model               *string    `json:"model"`
	Messages            []oMessage `json:"messages"`
	Stream              bool       `json:"stream"`
	MaxTokens           int        `json:"max_tokens"`
	MaxCompletionTokens int        `json:"max_completion_tokens"`
	ReasoningEffort     string     `json:"reasoning_effort"`
	StreamOptions       *struct {
		IncludeUsage bool `json:"include_usage"`
	} `json:"stream_options"`
	Tools []struct {
		Function struct {
			Name string `json:"name"`
		} `json:"function"`
	} `json:"tools"`
}

type oMessage struct {
	Role       string          `json:"role"`
	Content    json.RawMessage `json:"content"`
	ToolCallID string          `json:"tool_call_id"`
	ToolCalls  []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

type oPart struct {
	Type     string `json:"type"`
	Text     string `json:"text"`
	ImageURL struct {
		URL string `json:"url"`
	} `json:"image_url"`
}

// decodeOpenAI fills the neutral view of r from its body and returns the
// invalid_request_error message the real API would answer with, or "" when it is valid.
func decodeOpenAI(r *Request) (oRequest, string) {
	var body oRequest
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return body, "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON. If you have trouble figuring out how to fix this, please contact us through our help center at help.openai.com.)"
	}
	if body.Model != nil {
		r.Model = *body.Model
	}
	r.Stream, r.Effort, r.MaxTokens = body.Stream, body.ReasoningEffort, body.MaxTokens
	if body.MaxCompletionTokens > 0 {
		r.MaxTokens = body.MaxCompletionTokens
	}
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, t.Function.Name)
	}
	var system []string
	for i, m := range body.Messages {
		texts, parts, err := oContent(m.Content)
		if err != nil {
			return body, fmt.Sprintf("Invalid type for 'messages[%d].content': %v", i, err)
		}
		switch m.Role {
		case "system", "developer":
			system = append(system, strings.Join(texts, "\n\n"))
		case "tool":
			r.Messages = append(r.Messages, Message{Role: "tool", Content: []Block{{
				Type: "tool_result", ToolUseID: m.ToolCallID, Text: strings.Join(texts, "\n"),
			}}})
		default:
			msg := Message{Role: m.Role, Content: parts}
			for _, c := range m.ToolCalls {
				msg.Content = append(msg.Content, Block{
					Type: "tool_use", ID: c.ID, Name: c.Function.Name, Input: json.RawMessage(c.Function.Arguments),
				})
			}
			r.Messages = append(r.Messages, msg)
		}
	}
	r.System = strings.Join(system, "\n\n")
	return body, validateOpenAI(&body)
}

// oContent decodes message content: null, a string, or an array of parts.
func oContent(raw json.RawMessage) (texts []string, parts []Block, err error) {
	raw = bytes.TrimSpace(raw)
	if !isSet(raw) {
		return nil, nil, nil
	}
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, nil, err
		}
		return []string{s}, []Block{{Type: "text", Text: s}}, nil
	}
	var ps []oPart
	if err := json.Unmarshal(raw, &ps); err != nil {
		return nil, nil, fmt.Errorf("expected a string or an array of content parts")
	}
	for _, p := range ps {
		switch p.Type {
		case "text":
			texts = append(texts, p.Text)
			parts = append(parts, Block{Type: "text", Text: p.Text})
		case "image_url":
			mt := ""
			if rest, ok := strings.CutPrefix(p.ImageURL.URL, "data:"); ok {
				mt, _, _ = strings.Cut(rest, ";")
			}
			parts = append(parts, Block{Type: "image", MediaType: mt, Data: p.ImageURL.URL})
		default:
			parts = append(parts, Block{Type: p.Type})
		}
	}
	return texts, parts, nil
}

// validateOpenAI checks the rules of Chat Completions that catch transcript bugs, with the
// wording of the real API.
func validateOpenAI(body *oRequest) string {
	if body.Model == nil || *body.Model == "" {
		return "you must provide a model parameter"
	}
	if len(body.Messages) == 0 {
		return "[] is too short - 'messages'"
	}
	var pending []string // tool_call ids of the last assistant message still unanswered
	for _, m := range body.Messages {
		switch m.Role {
		case "system", "developer", "user", "assistant", "tool":
		default:
			return fmt.Sprintf("Invalid value: '%s'. Supported values are: 'system', 'assistant', 'user', 'function', 'tool', and 'developer'.", m.Role)
		}
		if m.Role == "tool" {
			k := indexOf(pending, m.ToolCallID)
			if k < 0 {
				return "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'."
			}
			pending = append(pending[:k], pending[k+1:]...)
			continue
		}
		if len(pending) > 0 {
			return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(pending, ", "))
		}
		pending = nil
		for _, c := range m.ToolCalls {
			pending = append(pending, c.ID)
		}
	}
	if len(pending) > 0 {
		return fmt.Sprintf("An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: %s", strings.Join(pending, ", "))
	}
	return ""
}

func indexOf(ids []string, id string) int {
	for i, s := range ids {
		if s == id {
			return i
		}
	}
	return -1
}
