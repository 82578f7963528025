// Package llm is the neutral model of a conversation with a language model: messages, content
// blocks, tool definitions, token usage and cost, the model catalog, and the Provider interface
// that the Anthropic and OpenAI clients implement.
//
// The JSON form of Message is exactly pi-coding-agent's AgentMessage (roles user, assistant and
// toolResult; content blocks text, thinking, image and toolCall), so the session files written
// from these types open in pi's own tools.
package llm

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Role says who wrote a message.
type Role string

// The roles pi's session format knows and mom writes.
const (
	RoleUser       Role = "user"
	RoleAssistant  Role = "assistant"
	RoleToolResult Role = "toolResult"
)

// StopReason says why the model stopped: pi's stop|length|toolUse|error|aborted.
type StopReason string

// The stop reasons of an assistant message.
const (
	StopEnd     StopReason = "stop"
	StopLength  StopReason = "length"
	StopToolUse StopReason = "toolUse"
	StopError   StopReason = "error"
	StopAborted StopReason = "aborted"
)

// Message is one message of a conversation. Which fields are used depends on Role: assistant
// messages carry the model, usage and stop reason; tool results carry the call they answer.
//
// The struct tags are pi's names, so json.Unmarshal reads a message in one pass; MarshalJSON
// writes only the fields of the message's role. pi sometimes stores user content as a plain
// string, which json.Unmarshal rejects with a *json.UnmarshalTypeError: read such messages with
// ParseMessage.
type Message struct {
	Role    Role      `json:"role"`
	Content []Content `json:"content"`
	// Timestamp is when the message was made, in Unix milliseconds (pi's message timestamp).
	Timestamp int64 `json:"timestamp"`

	// Assistant messages only.
	API          string     `json:"api"`      // "anthropic-messages" or "openai-completions"
	Provider     string     `json:"provider"` // "anthropic", "openai"
	Model        string     `json:"model"`    // the model id the provider answered with
	Usage        Usage      `json:"usage"`
	StopReason   StopReason `json:"stopReason"`
	ErrorMessage string     `json:"errorMessage"`

	// Tool results only.
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Details    json.RawMessage `json:"details"` // optional tool-specific data, not sent to the model
	IsError    bool            `json:"isError"`
}

// NewUserText returns a user message holding one text block, stamped with t.
func NewUserText(text string, t time.Time) Message {
	return Message{Role: RoleUser, Content: []Content{Text(text)}, Timestamp: t.UnixMilli()}
}

// Text returns the concatenated text blocks of m, separated by blank lines where a message has
// several. Thinking and tool calls are not included.
func (m Message) Text() string {
	var b bytes.Buffer
	for _, c := range m.Content {
		if c.Type != TypeText || c.Text == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n\n")
		}
		b.WriteString(c.Text)
	}
	return b.String()
}

// ToolCalls returns the tool-call blocks of an assistant message in order.
func (m Message) ToolCalls() []Content {
	var calls []Content
	for _, c := range m.Content {
		if c.Type == TypeToolCall {
			calls = append(calls, c)
		}
	}
	return calls
}

// messageJSON is the wire form shared by every role; MarshalJSON fills only the fields that
// belong to the role, so a user message carries no usage and a tool result no stop reason.
type messageJSON struct {
	Role         Role            `json:"role"`
	Content      json.RawMessage `json:"content"`
	API          string          `json:"api,omitempty"`
	Provider     string          `json:"provider,omitempty"`
	Model        string          `json:"model,omitempty"`
	Usage        *Usage          `json:"usage,omitempty"`
	StopReason   StopReason      `json:"stopReason,omitempty"`
	ErrorMessage string          `json:"errorMessage,omitempty"`
	ToolCallID   string          `json:"toolCallId,omitempty"`
	ToolName     string          `json:"toolName,omitempty"`
	Details      json.RawMessage `json:"details,omitempty"`
	IsError      *bool           `json:"isError,omitempty"`
	Timestamp    int64           `json:"timestamp"`
}

// MarshalJSON writes m in pi's AgentMessage form.
func (m Message) MarshalJSON() ([]byte, error) {
	content := m.Content
	if content == nil {
		content = []Content{}
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return nil, err
	}
	w := messageJSON{Role: m.Role, Content: raw, Timestamp: m.Timestamp}
	switch m.Role {
	case RoleAssistant:
		u := m.Usage
		w.API, w.Provider, w.Model, w.Usage = m.API, m.Provider, m.Model, &u
		w.StopReason, w.ErrorMessage = m.StopReason, m.ErrorMessage
	case RoleToolResult:
		isErr := m.IsError
		w.ToolCallID, w.ToolName, w.IsError = m.ToolCallID, m.ToolName, &isErr
		if len(m.Details) > 0 && !bytes.Equal(m.Details, []byte("null")) {
			w.Details = m.Details
		}
	}
	return json.Marshal(w)
}

// ParseMessage reads a message in pi's AgentMessage form, also one whose content is a plain
// string (it becomes one text block).
func ParseMessage(data []byte) (Message, error) {
	var m Message
	err := json.Unmarshal(data, &m)
	if !IsStringContent(err) {
		return m, err
	}
	var w struct {
		Message
		Content string `json:"content"`
	}
	if err := json.Unmarshal(data, &w); err != nil {
		return Message{}, fmt.Errorf("message content: %w", err)
	}
	m = w.Message
	m.Content = []Content{Text(w.Content)}
	return m, nil
}

// IsStringContent reports whether err is json.Unmarshal refusing a message whose content is a
// string, at any depth of the value being decoded.
func IsStringContent(err error) bool {
	var typeErr *json.UnmarshalTypeError
	return errors.As(err, &typeErr) && typeErr.Value == "string" &&
		(typeErr.Field == "content" || strings.HasSuffix(typeErr.Field, ".content"))
}
