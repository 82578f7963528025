package fakellm

import (
	"encoding/json"
	"net/http"
	"strings"
)

// Protocol names the wire protocol a request arrived in.
type Protocol string

// The protocols the fake speaks.
const (
	Anthropic Protocol = "anthropic"
	OpenAI    Protocol = "openai"
)

// Request is one request the fake received, recorded whether it was valid or not. The
// decoded fields are a protocol-neutral view for assertions; Body has the exact bytes.
type Request struct {
	Protocol Protocol
	Method   string
	Path     string
	Header   http.Header
	Body     []byte

	// Model, System and MaxTokens as sent (System joins every system text block or system
	// message; MaxTokens is max_tokens, or OpenAI's max_completion_tokens when set).
	Model     string
	System    string
	MaxTokens int
	Stream    bool
	// Thinking is Anthropic's thinking.type ("enabled", "adaptive", "disabled") and
	// ThinkingBudget its budget_tokens; Effort is Anthropic's output_config.effort or
	// OpenAI's reasoning_effort.
	Thinking       string
	ThinkingBudget int
	Effort         string
	// Messages are the conversation without the system prompt. OpenAI tool calls appear as
	// tool_use blocks and tool messages as role "tool" with one tool_result block, so the
	// same assertions work for both protocols.
	Messages []Message
	// Tools are the names of the tools offered, in order.
	Tools []string
	// CacheMarkers counts the cache_control breakpoints (Anthropic).
	CacheMarkers int

	// Rejected is the error message the fake answered with when the request was invalid or
	// unauthorized, and "" otherwise.
	Rejected string
	// Unscripted is true when no reply was scripted for the request and it got a 500.
	Unscripted bool
}

// Message is one message of a recorded request.
type Message struct {
	Role    string
	Content []Block
}

// Block is one content block of a recorded message.
type Block struct {
	// Type is text, image, thinking, redacted_thinking, tool_use or tool_result.
	Type string
	// Text is the text of a text block, the reasoning of a thinking block, or the text of a
	// tool result (its text parts joined by newlines).
	Text string
	// Signature is a thinking block's signature or a redacted_thinking block's data.
	Signature string
	// ID, Name and Input describe a tool_use block.
	ID    string
	Name  string
	Input json.RawMessage
	// ToolUseID and IsError describe a tool_result block; Images counts its image parts.
	ToolUseID string
	IsError   bool
	Images    int
	// MediaType and Data describe an image (Data is base64, or the URL for OpenAI).
	MediaType string
	Data      string
	// Cached is true when the block carries cache_control.
	Cached bool
}

// Decode unmarshals the raw body into v, for assertions on fields the neutral view omits.
func (r *Request) Decode(v any) error { return json.Unmarshal(r.Body, v) }

// LastUserText returns the text of the last user message (its text blocks joined by blank
// lines; tool results are not included).
func (r *Request) LastUserText() string {
	for i := len(r.Messages) - 1; i >= 0; i-- {
		m := r.Messages[i]
		if m.Role != "user" {
			continue
		}
		var parts []string
		for _, b := range m.Content {
			if b.Type == "text" {
				parts = append(parts, b.Text)
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n\n")
		}
	}
	return ""
}

// LastImages returns the image blocks of the last message, where a person's pictures reach
// the model inline.
func (r *Request) LastImages() []Block {
	if len(r.Messages) == 0 {
		return nil
	}
	var out []Block
	for _, b := range r.Messages[len(r.Messages)-1].Content {
		if b.Type == "image" {
			out = append(out, b)
		}
	}
	return out
}

// ToolResults returns every tool result the client sent, in order.
func (r *Request) ToolResults() []Block {
	var out []Block
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_result" {
				out = append(out, b)
			}
		}
	}
	return out
}

// ToolResult returns the result the client sent for a tool call id.
func (r *Request) ToolResult(toolUseID string) (Block, bool) {
	for _, b := range r.ToolResults() {
		if b.ToolUseID == toolUseID {
			return b, true
		}
	}
	return Block{}, false
}

// ToolUses returns every tool call of the assistant messages the client sent back, in order.
func (r *Request) ToolUses() []Block {
	var out []Block
	for _, m := range r.Messages {
		for _, b := range m.Content {
			if b.Type == "tool_use" {
				out = append(out, b)
			}
		}
	}
	return out
}
