package fakellm

import (
	"encoding/json"
	"fmt"
	"net/http"
	"time"
)

// Reply is what the fake answers one request with, in protocol-neutral terms: the same Reply
// is streamed as Anthropic events or OpenAI chunks depending on the endpoint that was called.
type Reply struct {
	// Thinking is reasoning text, streamed before the answer: an Anthropic thinking block
	// (signed with Signature, or a generated signature when that is empty), or an OpenAI
	// reasoning field on the delta (see ReasoningField).
	Thinking  string
	Signature string
	// RedactedThinking, when set, adds an Anthropic redacted_thinking block with this data.
	RedactedThinking string
	// Text is the answer, streamed in several deltas.
	Text string
	// ToolCalls are streamed after the text, their arguments in several fragments.
	ToolCalls []ToolCall
	// StopReason is "stop", "length", "toolUse" or "refusal", translated into each protocol
	// (Anthropic end_turn/max_tokens/tool_use/refusal, OpenAI stop/length/tool_calls/
	// content_filter); any other value is sent as it is. Empty means toolUse when there are
	// tool calls and stop otherwise.
	StopReason string
	// Usage is reported as the protocol does; nil means an estimate from the request and the
	// answer (characters / 4).
	Usage *Usage
	// Model is the model id the answer claims to come from; empty means the requested one.
	Model string

	// Error makes the fake answer with this HTTP error instead of a stream.
	Error *APIError
	// StreamError is sent as an error event (Anthropic `event: error`, OpenAI `data:
	// {"error":…}`) after the content, in place of the end of the stream.
	StreamError *APIError

	// Delay is waited before the response headers are sent.
	Delay time.Duration
	// EventDelay is waited before each event after the first.
	EventDelay time.Duration
	// CutAfter, when positive, drops the connection after that many events, without the end
	// marker (message_stop, [DONE]); when negative, right after the response headers.
	CutAfter int
	// Hold, when set, stops the stream after the content and before its end until the
	// channel is closed or the client goes away, so a test can abort a running answer.
	Hold <-chan struct{}
	// ChunkSize is how many characters each text, thinking or argument delta carries at most;
	// zero means 8.
	ChunkSize int
	// ReasoningField names the non-standard delta field that carries OpenAI-protocol
	// thinking: "reasoning_content" (DeepSeek, vLLM, llama.cpp; the default) or "reasoning"
	// (OpenRouter).
	ReasoningField string
}

// ToolCall is one tool call of a Reply.
type ToolCall struct {
	// ID is the call id; empty means a generated toolu_… (Anthropic) or call_… (OpenAI) id.
	ID   string
	Name string
	// Args are the arguments: a string or json.RawMessage is sent as it is (so a test can
	// send arguments that do not parse), anything else is marshalled to JSON; nil is {}.
	Args any
}

// Usage is the token count a Reply reports. Input counts the uncached input tokens only, as
// mom's llm.Usage does; the OpenAI protocol reports prompt_tokens = Input + CacheRead +
// CacheWrite with cached_tokens = CacheRead.
type Usage struct {
	Input, Output, CacheRead, CacheWrite int
}

// APIError is an error answer. Zero fields get the protocol's usual values for the status.
type APIError struct {
	// Status is the HTTP status (ignored for a StreamError).
	Status int
	// Type is the error type: Anthropic's error.type (overloaded_error, rate_limit_error, …)
	// or OpenAI's error.type (invalid_request_error, server_error, …).
	Type string
	// Message is the human-readable explanation.
	Message string
	// Code is OpenAI's error.code (context_length_exceeded, rate_limit_exceeded, …).
	Code string
	// RetryAfter is sent as the Retry-After header, e.g. "7" or an HTTP date.
	RetryAfter string
	// Header holds further response headers.
	Header http.Header

	special special
}

// special marks errors whose body depends on the protocol and the request.
type special int

const (
	plainError special = iota
	overflowError
	overloadedError
)

// Text returns a Reply that answers with text.
func Text(s string) Reply { return Reply{Text: s} }

// Call returns a tool call with a generated id.
func Call(name string, args any) ToolCall { return ToolCall{Name: name, Args: args} }

// Calls returns a Reply that calls the given tools.
func Calls(calls ...ToolCall) Reply { return Reply{ToolCalls: calls} }

// Fail returns a Reply that answers with an HTTP error. An empty type or message gets the
// protocol's usual one for the status.
func Fail(status int, typ, message string) Reply {
	return Reply{Error: &APIError{Status: status, Type: typ, Message: message}}
}

// RateLimited returns a 429 answer with the given Retry-After header value ("" for none).
func RateLimited(retryAfter string) Reply {
	return Reply{Error: &APIError{Status: http.StatusTooManyRequests, RetryAfter: retryAfter}}
}

// Overloaded returns what the service says when it is overloaded: Anthropic 529
// overloaded_error, OpenAI 503 server_error.
func Overloaded() Reply {
	return Reply{Error: &APIError{special: overloadedError}}
}

// Overflow returns exactly the error the real API gives a prompt longer than the context
// window: Anthropic 400 invalid_request_error "prompt is too long: N tokens > M maximum",
// OpenAI 400 invalid_request_error with code context_length_exceeded.
func Overflow() Reply {
	return Reply{Error: &APIError{Status: http.StatusBadRequest, special: overflowError}}
}

// argsJSON returns the call's arguments as JSON text.
func (c ToolCall) argsJSON() string {
	switch a := c.Args.(type) {
	case nil:
		return "{}"
	case string:
		return a
	case json.RawMessage:
		return string(a)
	case []byte:
		return string(a)
	}
	b, err := json.Marshal(c.Args)
	if err != nil {
		return fmt.Sprintf("%q", err.Error())
	}
	return string(b)
}
