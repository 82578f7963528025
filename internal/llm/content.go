package llm

import "encoding/json"

// ContentType names the kind of a content block.
type ContentType string

// The content blocks of pi's message format.
const (
	TypeText     ContentType = "text"
	TypeThinking ContentType = "thinking"
	TypeImage    ContentType = "image"
	TypeToolCall ContentType = "toolCall"
)

// Content is one block of a message. Which fields are used depends on Type. The struct tags
// are pi's names, used to read blocks; MarshalJSON writes only the keys of the block's type.
type Content struct {
	Type ContentType `json:"type"`

	Text string `json:"text"` // text

	Thinking  string `json:"thinking"`          // thinking: the model's reasoning text
	Signature string `json:"thinkingSignature"` // thinking: the provider's opaque signature, sent back unchanged
	Redacted  bool   `json:"redacted"`          // thinking: the reasoning was redacted; Signature holds the encrypted data

	Data     string `json:"data"`     // image: base64 bytes
	MimeType string `json:"mimeType"` // image: image/png, image/jpeg, image/gif or image/webp

	ID        string          `json:"id"`        // toolCall: the provider's call id
	Name      string          `json:"name"`      // toolCall: the tool's name
	Arguments json.RawMessage `json:"arguments"` // toolCall: a JSON object
}

// Text returns a text block.
func Text(s string) Content { return Content{Type: TypeText, Text: s} }

// Image returns an image block from base64 data.
func Image(base64Data, mimeType string) Content {
	return Content{Type: TypeImage, Data: base64Data, MimeType: mimeType}
}

// ToolCall returns a tool-call block; nil arguments become an empty object.
func ToolCall(id, name string, args json.RawMessage) Content {
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	return Content{Type: TypeToolCall, ID: id, Name: name, Arguments: args}
}

type textJSON struct {
	Type ContentType `json:"type"`
	Text string      `json:"text"`
}

type thinkingJSON struct {
	Type      ContentType `json:"type"`
	Thinking  string      `json:"thinking"`
	Signature string      `json:"thinkingSignature,omitempty"`
	Redacted  bool        `json:"redacted,omitempty"`
}

type imageJSON struct {
	Type     ContentType `json:"type"`
	Data     string      `json:"data"`
	MimeType string      `json:"mimeType"`
}

type toolCallJSON struct {
	Type      ContentType     `json:"type"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

// MarshalJSON writes the block with exactly the keys pi uses for its type.
func (c Content) MarshalJSON() ([]byte, error) {
	switch c.Type {
	case TypeText:
		return json.Marshal(textJSON{c.Type, c.Text})
	case TypeThinking:
		return json.Marshal(thinkingJSON{c.Type, c.Thinking, c.Signature, c.Redacted})
	case TypeImage:
		return json.Marshal(imageJSON{c.Type, c.Data, c.MimeType})
	case TypeToolCall:
		args := c.Arguments
		if len(args) == 0 {
			args = json.RawMessage("{}")
		}
		return json.Marshal(toolCallJSON{c.Type, c.ID, c.Name, args})
	}
	// A block type from a newer pi: mom neither sends nor rewrites it, so its type is enough.
	return json.Marshal(struct {
		Type ContentType `json:"type"`
	}{c.Type})
}
