package llm

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// The classification helpers below are shared by the Anthropic and OpenAI providers, so both
// sort failures the same way and the agent's retry policy means the same thing for each.

// ErrorFromHTTP classifies an error answer from a model server: its status, headers and body.
// The message is the server's own explanation, taken from the common JSON shapes
// ({"error":{"message"}}, {"error":"..."}, {"message"}, {"detail"}), or the body itself when
// it is short plain text.
//
// Status 0 stands for an error reported inside a stream that had started with 200 (an SSE
// `error` event); its kind then follows the error type, and an unknown type counts as
// transient because a stream that broke off is usually worth another try.
func ErrorFromHTTP(provider string, status int, header http.Header, body []byte) *Error {
	msg, typ, code := errorBodyFields(body)
	if msg == "" {
		msg = strings.TrimSpace(http.StatusText(status))
		if typ != "" {
			msg = typ
		}
	}
	e := &Error{Provider: provider, Status: status, Message: msg, RetryAfter: RetryAfter(header, time.Now())}
	e.Kind = kindOf(status, msg, typ, code)
	return e
}

// kindOf decides what the agent should do about an error answer.
func kindOf(status int, msg, typ, code string) ErrorKind {
	// A rate limit may mention tokens ("too many tokens per minute") without being an overflow.
	if status != http.StatusTooManyRequests && (status == http.StatusRequestEntityTooLarge ||
		IsOverflowText(msg) || IsOverflowText(typ) || IsOverflowText(code)) {
		return ErrOverflow
	}
	switch {
	case status == http.StatusUnauthorized || status == http.StatusForbidden:
		return ErrAuth
	case status == http.StatusTooManyRequests || status == http.StatusRequestTimeout ||
		status == http.StatusConflict || status >= 500:
		return ErrTransient
	case status >= 400:
		return ErrInvalid
	}
	switch typ {
	case "authentication_error", "permission_error":
		return ErrAuth
	case "invalid_request_error", "not_found_error", "billing_error":
		return ErrInvalid
	}
	return ErrTransient
}

// IsOverflowText reports whether an error message, type or code says the request was longer
// than the model's context window.
func IsOverflowText(s string) bool {
	if s == "" {
		return false
	}
	s = strings.ToLower(s)
	// The phrases are how servers say a request did not fit the model's context window, in
	// lower case. Sources: Anthropic ("prompt is too long: 213462 tokens > 200000 maximum",
	// "input length and `max_tokens` exceed context limit", request_too_large), OpenAI (code
	// context_length_exceeded, "exceeds the context window", "maximum context length is N
	// tokens"), OpenRouter (the same "maximum context length"), vLLM ("maximum context length",
	// "is longer than the maximum model length"), llama.cpp ("exceeds the available context
	// size", type exceed_context_size_error), Ollama ("exceeds maximum context length",
	// "exceeded max context length"), LM Studio ("greater than the context length"), Groq
	// ("reduce the length of the messages"), xAI ("maximum prompt length"), Bedrock ("input is
	// too long"), and the generic "too many tokens" and "token limit exceeded".
	phrases := [...]string{
		"prompt is too long",
		"exceed context limit",
		"request_too_large",
		"context_length_exceeded",
		"context length exceeded",
		"maximum context length",
		"max context length",
		"context window",
		"exceed_context_size",
		"exceeds the available context size",
		"greater than the context length",
		"longer than the maximum model length",
		"reduce the length of the messages",
		"maximum prompt length",
		"input is too long",
		"too many tokens",
		"token limit exceeded",
		"exceeded model token limit",
	}
	for _, p := range phrases {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// errorBodyFields pulls the message, type and code out of an error body in any of the shapes
// model servers use. Codes may be strings or numbers (llama.cpp sends the status as code).
func errorBodyFields(body []byte) (msg, typ, code string) {
	var w struct {
		Error   json.RawMessage `json:"error"`
		Message string          `json:"message"`
		Type    string          `json:"type"`
		Code    json.RawMessage `json:"code"`
		Detail  json.RawMessage `json:"detail"`
	}
	if err := json.Unmarshal(body, &w); err != nil {
		text := strings.TrimSpace(string(body))
		if len(text) > 500 || strings.HasPrefix(text, "<") {
			return "", "", ""
		}
		return text, "", ""
	}
	msg, typ, code = w.Message, w.Type, rawString(w.Code)
	if len(w.Error) > 0 {
		var inner struct {
			Message string          `json:"message"`
			Type    string          `json:"type"`
			Code    json.RawMessage `json:"code"`
		}
		var s string
		switch {
		case json.Unmarshal(w.Error, &s) == nil:
			msg = s
		case json.Unmarshal(w.Error, &inner) == nil:
			msg, typ, code = inner.Message, inner.Type, rawString(inner.Code)
		}
	}
	if msg == "" && len(w.Detail) > 0 {
		msg = rawString(w.Detail)
		if msg == "" {
			msg = string(w.Detail)
		}
	}
	return msg, typ, code
}

// rawString returns a JSON string's value or a number's digits, and "" for anything else.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// RetryAfter reads how long the server asks the client to wait: retry-after-ms (OpenAI,
// Anthropic), else retry-after in seconds or as an HTTP date. It returns zero when there is no
// usable value.
func RetryAfter(h http.Header, now time.Time) time.Duration {
	if h == nil {
		return 0
	}
	if v := strings.TrimSpace(h.Get("retry-after-ms")); v != "" {
		if ms, err := strconv.ParseFloat(v, 64); err == nil && ms > 0 {
			return time.Duration(ms * float64(time.Millisecond))
		}
	}
	v := strings.TrimSpace(h.Get("retry-after"))
	if v == "" {
		return 0
	}
	if s, err := strconv.ParseFloat(v, 64); err == nil {
		if s <= 0 {
			return 0
		}
		return time.Duration(s * float64(time.Second))
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return t.Sub(now)
	}
	return 0
}

// ErrStreamEndedEarly says the server closed an answer before its end marker.
var ErrStreamEndedEarly = errors.New("the model's answer stopped before it was complete (stream ended early)")

// ErrorFromTransport classifies a failure that is not an error answer: a refused or reset
// connection, a cut stream, a timeout, a malformed chunk. All of these are transient: a
// request that did not get through, or an answer that broke off, is worth sending again.
// Callers handle the end of their own context before calling this.
func ErrorFromTransport(provider string, err error) *Error {
	msg := err.Error()
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		msg = "could not connect to the model server (connection refused): " + msg
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		msg = "the model server dropped the connection: " + msg
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		msg = "the model's answer was cut off: " + msg
	case errors.Is(err, context.DeadlineExceeded), isTimeout(err):
		msg = "the model server did not answer in time: " + msg
	}
	return &Error{Kind: ErrTransient, Provider: provider, Message: msg, Err: err}
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// StallError returns the transient error for an answer that sent nothing for d.
func StallError(provider string, d time.Duration) *Error {
	return &Error{
		Kind: ErrTransient, Provider: provider, Err: ErrStalled,
		Message: fmt.Sprintf("the model server sent nothing for %s, so the request was abandoned", d),
	}
}
