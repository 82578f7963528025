package openai

import "encoding/json"

// The Chat Completions wire format, as much of it as mom sends and reads. Field order follows
// OpenAI's reference, so requests read the way its documentation shows them. Everything a
// server may add is ignored; reasoning fields are kept raw, as compatible servers disagree on
// their type.

// chatRequest is the body of POST /chat/completions.
type chatRequest struct {
	Model               string        `json:"model"`
	Messages            []chatMessage `json:"messages"`
	Tools               []tool        `json:"tools,omitempty"`
	MaxCompletionTokens int           `json:"max_completion_tokens,omitempty"`
	MaxTokens           int           `json:"max_tokens,omitempty"`
	ReasoningEffort     string        `json:"reasoning_effort,omitempty"`
	Stream              bool          `json:"stream"`
	StreamOptions       streamOptions `json:"stream_options"`
}

// streamOptions asks for usage: without it a streamed answer reports none.
type streamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// chatMessage is one message of the conversation. Content is a string, or a list of
// contentParts for a user message with images; nil leaves it out (an assistant message that
// only calls tools).
type chatMessage struct {
	Content    any        `json:"content,omitempty"`
	ToolCalls  []toolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	Role       string     `json:"role"`
}

// contentPart is a piece of a user message: text, or an image given as a data URL.
type contentPart struct {
	Text     string    `json:"text,omitempty"`
	ImageURL *imageURL `json:"image_url,omitempty"`
	Type     string    `json:"type"`
}

type imageURL struct {
	URL string `json:"url"`
}

// toolCall is a call the assistant made, sent back with the conversation.
type toolCall struct {
	ID       string       `json:"id"`
	Function functionCall `json:"function"`
	Type     string       `json:"type"`
}

type functionCall struct {
	Arguments string `json:"arguments"`
	Name      string `json:"name"`
}

// tool offers the model a function.
type tool struct {
	Type     string      `json:"type"`
	Function functionDef `json:"function"`
}

type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
}

// chunk is one event of a streamed answer. A server that does not stream sends one whole
// completion, whose choices carry a message instead of a delta (see wholeCompletion).
type chunk struct {
	Model   string          `json:"model"`
	Choices []choice        `json:"choices"`
	Usage   *usage          `json:"usage"`
	Error   json.RawMessage `json:"error"`
}

type choice struct {
	Index        int64  `json:"index"`
	Delta        delta  `json:"delta"`
	Message      *delta `json:"message"`
	FinishReason string `json:"finish_reason"`
}

// delta is what a chunk adds to the answer.
type delta struct {
	Content   string          `json:"content"`
	Refusal   string          `json:"refusal"`
	ToolCalls []deltaToolCall `json:"tool_calls"`
	// ReasoningContent (DeepSeek, vLLM, llama.cpp, Qwen) and Reasoning (OpenRouter, Ollama,
	// newer vLLM) are compatible servers' reasoning text.
	ReasoningContent json.RawMessage `json:"reasoning_content"`
	Reasoning        json.RawMessage `json:"reasoning"`
}

// deltaToolCall is a piece of a tool call: the first names it (id and function name), the
// rest carry argument fragments, all at the call's index.
type deltaToolCall struct {
	Index    int64        `json:"index"`
	ID       string       `json:"id"`
	Function functionCall `json:"function"`
}

type usage struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	PromptTokensDetails struct {
		CachedTokens     int `json:"cached_tokens"`
		CacheWriteTokens int `json:"cache_write_tokens"`
	} `json:"prompt_tokens_details"`
}
