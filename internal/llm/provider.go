package llm

import (
	"context"
	"encoding/json"
)

// Provider sends one request to a model and streams the answer. Implementations do not retry:
// the agent loop owns retries so that it can tell people about them.
type Provider interface {
	// Stream sends req and calls onEvent for every piece of the answer as it arrives, from the
	// calling goroutine. On success it returns the complete assistant message with StopReason
	// stop, length or toolUse, usage and cost filled in, and API, Provider, Model and Timestamp
	// set. On failure it returns an *Error, or ctx.Err() when ctx ended, together with whatever
	// part of the message had arrived (possibly nil).
	Stream(ctx context.Context, req *Request, onEvent func(StreamEvent)) (*Message, error)
}

// ThinkingLevel is how much extended reasoning the model is asked for.
type ThinkingLevel string

// The thinking levels a config may name.
const (
	ThinkingOff    ThinkingLevel = "off"
	ThinkingLow    ThinkingLevel = "low"
	ThinkingMedium ThinkingLevel = "medium"
	ThinkingHigh   ThinkingLevel = "high"
)

// Request is one call to a model.
type Request struct {
	Model    Model
	System   string
	Messages []Message
	Tools    []Tool
	Thinking ThinkingLevel
	// MaxTokens caps the answer; zero means the model's catalog maximum.
	MaxTokens int
}

// Tool describes a tool the model may call.
type Tool struct {
	Name        string
	Description string
	// Parameters is the JSON Schema of the tool's arguments, an object schema.
	Parameters json.RawMessage
}

// StreamEventType names a piece of a streamed answer.
type StreamEventType string

// The pieces a provider reports while an answer streams.
const (
	EventTextDelta     StreamEventType = "text_delta"
	EventThinkingDelta StreamEventType = "thinking_delta"
	EventToolCallStart StreamEventType = "toolcall_start"
	EventToolCallDelta StreamEventType = "toolcall_delta"
)

// StreamEvent is one piece of a streamed answer.
type StreamEvent struct {
	Type StreamEventType
	// Index is the content block's position in the final message.
	Index int
	// Delta is the new text, thinking, or JSON fragment of a tool call's arguments.
	Delta string
	// ToolCallID and ToolName are set on toolcall_start.
	ToolCallID string
	ToolName   string
}
