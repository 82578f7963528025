package anthropic

import "encoding/json"

// The Messages API's wire format, as much of it as mom sends and reads; everything else a
// server sends is ignored.

// messagesRequest is the body of POST /v1/messages.
type messagesRequest struct {
	Model        string        `json:"model"`
	MaxTokens    int           `json:"max_tokens"`
	System       []block       `json:"system,omitempty"`
	Messages     []message     `json:"messages"`
	Tools        []tool        `json:"tools,omitempty"`
	Thinking     *thinking     `json:"thinking,omitempty"`
	OutputConfig *outputConfig `json:"output_config,omitempty"`
	Stream       bool          `json:"stream"`
}

type message struct {
	Role    string  `json:"role"`
	Content []block `json:"content"`
}

// block is a content block of any type; the fields of the other types stay empty and out.
type block struct {
	Type string `json:"type"`
	// text
	Text string `json:"text,omitempty"`
	// image
	Source *imageSource `json:"source,omitempty"`
	// tool_use
	ID    string          `json:"id,omitempty"`
	Name  string          `json:"name,omitempty"`
	Input json.RawMessage `json:"input,omitempty"`
	// tool_result
	ToolUseID string  `json:"tool_use_id,omitempty"`
	Content   []block `json:"content,omitempty"`
	IsError   bool    `json:"is_error,omitempty"`
	// thinking, redacted_thinking
	Thinking  *string `json:"thinking,omitempty"` // present, even empty, in a thinking block
	Signature string  `json:"signature,omitempty"`
	Data      string  `json:"data,omitempty"`

	CacheControl *cacheControl `json:"cache_control,omitempty"`
}

type imageSource struct {
	Type      string `json:"type"`
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// cacheControl marks a prompt-caching breakpoint.
type cacheControl struct {
	Type string `json:"type"`
}

// ephemeral is the only cache the API has.
func ephemeral() *cacheControl { return &cacheControl{Type: "ephemeral"} }

type tool struct {
	Name         string          `json:"name"`
	Description  string          `json:"description,omitempty"`
	InputSchema  json.RawMessage `json:"input_schema"`
	CacheControl *cacheControl   `json:"cache_control,omitempty"`
}

// thinking is extended thinking: "enabled" with a budget, or "adaptive".
type thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
	Display      string `json:"display,omitempty"`
}

type outputConfig struct {
	Effort string `json:"effort,omitempty"`
}

// streamEvent is the data of one event of a streamed answer; Type names it.
type streamEvent struct {
	Type         string          `json:"type"`
	Message      *startMessage   `json:"message"`
	Index        int64           `json:"index"`
	ContentBlock *block          `json:"content_block"`
	Delta        *eventDelta     `json:"delta"`
	Usage        *usage          `json:"usage"`
	Error        json.RawMessage `json:"error"`
}

type startMessage struct {
	Model string `json:"model"`
	Usage usage  `json:"usage"`
}

// eventDelta is a content_block_delta's delta or a message_delta's.
type eventDelta struct {
	Type        string `json:"type"`
	Text        string `json:"text"`
	Thinking    string `json:"thinking"`
	Signature   string `json:"signature"`
	PartialJSON string `json:"partial_json"`
	StopReason  string `json:"stop_reason"`
	StopDetails struct {
		Explanation string `json:"explanation"`
	} `json:"stop_details"`
}

// usage counts tokens; message_delta's omits what it does not update, hence the pointers.
type usage struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
}
