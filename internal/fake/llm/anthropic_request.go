package fakellm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// aRequest is the part of a Messages API request body the fake reads.
type aRequest struct {
	Model     *string                  `json:"model"`
	MaxTokens *int                     `json:"max_tokens"`
	Messages  *[]aMessage              `json:"messages"`
	System    json.RawMessage          `json:"system"`
	Stream    bool                     `json:"stream"`
	Thinking  *aThinking               `json:"thinking"`
	Output    *struct{ Effort string } `json:"output_config"`
	Tools     []struct {
		Name         string          `json:"name"`
		CacheControl json.RawMessage `json:"cache_control"`
	} `json:"tools"`
}

type aThinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens"`
}

type aMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

type aBlock struct {
	Type         string          `json:"type"`
	Text         *string         `json:"text"`
	Thinking     string          `json:"thinking"`
	Signature    *string         `json:"signature"`
	Data         string          `json:"data"`
	ID           string          `json:"id"`
	Name         string          `json:"name"`
	Input        json.RawMessage `json:"input"`
	ToolUseID    string          `json:"tool_use_id"`
	IsError      bool            `json:"is_error"`
	Content      json.RawMessage `json:"content"`
	Source       *aSource        `json:"source"`
	CacheControl json.RawMessage `json:"cache_control"`
}

type aSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
	URL       string `json:"url"`
}

// blocks decodes message content, which is either a string or an array of blocks.
func blocks(raw json.RawMessage) ([]aBlock, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] != '[' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, fmt.Errorf("Input should be a valid list")
		}
		return []aBlock{{Type: "text", Text: &s}}, nil
	}
	var bs []aBlock
	if err := json.Unmarshal(raw, &bs); err != nil {
		return nil, err
	}
	return bs, nil
}

// decodeAnthropic fills the neutral view of r from its body and returns the
// invalid_request_error message the real API would answer with, or "" when it is valid.
func decodeAnthropic(r *Request) string {
	var body aRequest
	if err := json.Unmarshal(r.Body, &body); err != nil {
		return "There was an error parsing the body of your request: " + err.Error()
	}
	r.Stream = body.Stream
	if body.Model != nil {
		r.Model = *body.Model
	}
	if body.MaxTokens != nil {
		r.MaxTokens = *body.MaxTokens
	}
	if body.Thinking != nil {
		r.Thinking, r.ThinkingBudget = body.Thinking.Type, body.Thinking.BudgetTokens
	}
	if body.Output != nil {
		r.Effort = body.Output.Effort
	}
	for _, t := range body.Tools {
		r.Tools = append(r.Tools, t.Name)
		if isSet(t.CacheControl) {
			r.CacheMarkers++
		}
	}
	problem := decodeSystem(r, body.System)
	if body.Messages != nil {
		for i, m := range *body.Messages {
			msg, p := decodeAMessage(r, i, m)
			r.Messages = append(r.Messages, msg)
			if problem == "" {
				problem = p
			}
		}
	}
	if problem != "" {
		return problem
	}
	return validateAnthropic(r, &body)
}

func decodeSystem(r *Request, raw json.RawMessage) string {
	if !isSet(raw) {
		return ""
	}
	bs, err := blocks(raw)
	if err != nil {
		return "system: " + err.Error()
	}
	var parts []string
	for i, b := range bs {
		if isSet(b.CacheControl) {
			r.CacheMarkers++
		}
		if b.Type != "text" {
			return fmt.Sprintf("system.%d.type: Input tag '%s' found using 'type' does not match the expected tag: 'text'", i, b.Type)
		}
		if b.Text == nil || *b.Text == "" {
			return fmt.Sprintf("system.%d.text: text content blocks must be non-empty", i)
		}
		parts = append(parts, *b.Text)
	}
	r.System = strings.Join(parts, "\n\n")
	return ""
}

func decodeAMessage(r *Request, i int, m aMessage) (Message, string) {
	msg := Message{Role: m.Role}
	bs, err := blocks(m.Content)
	if err != nil {
		return msg, fmt.Sprintf("messages.%d.content: %v", i, err)
	}
	problem := ""
	for j, b := range bs {
		nb, p := decodeABlock(r, b, fmt.Sprintf("messages.%d.content.%d", i, j))
		msg.Content = append(msg.Content, nb)
		if problem == "" {
			problem = p
		}
	}
	return msg, problem
}

// decodeABlock converts one block and checks what the real API checks about it in isolation.
func decodeABlock(r *Request, b aBlock, at string) (Block, string) {
	nb := Block{Type: b.Type, Cached: isSet(b.CacheControl)}
	if nb.Cached {
		r.CacheMarkers++
	}
	switch b.Type {
	case "text":
		if b.Text == nil {
			return nb, at + ".text: Field required"
		}
		nb.Text = *b.Text
		if nb.Text == "" {
			return nb, at + ".text: text content blocks must be non-empty"
		}
	case "image":
		if b.Source == nil {
			return nb, at + ".source: Field required"
		}
		nb.MediaType, nb.Data = b.Source.MediaType, b.Source.Data
		if b.Source.Type == "base64" && !validMediaType(nb.MediaType) {
			return nb, fmt.Sprintf("%s.source.base64.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'", at)
		}
	case "thinking":
		nb.Text = b.Thinking
		if b.Signature == nil {
			return nb, at + ".thinking.signature: Field required"
		}
		nb.Signature = *b.Signature
	case "redacted_thinking":
		nb.Signature = b.Data
	case "tool_use":
		nb.ID, nb.Name, nb.Input = b.ID, b.Name, b.Input
		if !isObject(b.Input) {
			return nb, at + ".tool_use.input: Input should be a valid dictionary"
		}
	case "tool_result":
		nb.ToolUseID, nb.IsError = b.ToolUseID, b.IsError
		return decodeToolResultContent(r, nb, b.Content, at)
	default:
		return nb, fmt.Sprintf("%s: Input tag '%s' found using 'type' does not match any of the expected tags", at, b.Type)
	}
	return nb, ""
}

func decodeToolResultContent(r *Request, nb Block, raw json.RawMessage, at string) (Block, string) {
	if !isSet(raw) {
		return nb, ""
	}
	inner, err := blocks(raw)
	if err != nil {
		return nb, at + ".content: " + err.Error()
	}
	var texts []string
	for k, c := range inner {
		if isSet(c.CacheControl) {
			r.CacheMarkers++
		}
		switch c.Type {
		case "text":
			if c.Text == nil || *c.Text == "" {
				return nb, fmt.Sprintf("%s.content.%d.text: text content blocks must be non-empty", at, k)
			}
			texts = append(texts, *c.Text)
		case "image":
			nb.Images++
		default:
			return nb, fmt.Sprintf("%s.content.%d: Input tag '%s' found using 'type' does not match any of the expected tags", at, k, c.Type)
		}
	}
	nb.Text = strings.Join(texts, "\n")
	return nb, ""
}

func validMediaType(t string) bool {
	switch t {
	case "image/jpeg", "image/png", "image/gif", "image/webp":
		return true
	}
	return false
}

func isSet(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && !bytes.Equal(raw, []byte("null"))
}

func isObject(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && raw[0] == '{' && json.Valid(raw)
}
