package fakellm

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
)

// serveAnthropic answers POST /v1/messages.
func (s *Server) serveAnthropic(w http.ResponseWriter, r *http.Request, req *Request) {
	key := r.Header.Get("x-api-key")
	if key == "" {
		key = bearer(r.Header)
	}
	if p := s.checkKey(key, "x-api-key header is required", "invalid x-api-key"); p != "" {
		s.rejectAnthropic(w, req, &APIError{Status: http.StatusUnauthorized, Type: "authentication_error", Message: p})
		return
	}
	problem := decodeAnthropic(req)
	if problem == "" && r.Header.Get("anthropic-version") == "" {
		problem = "anthropic-version: header is required"
	}
	if problem != "" {
		s.rejectAnthropic(w, req, &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: problem})
		return
	}
	if _, over := s.overflows(req); over {
		s.rejectAnthropic(w, req, &APIError{Status: http.StatusBadRequest, special: overflowError})
		return
	}
	rep, ok := s.next(req)
	if !ok {
		req.Unscripted = true
		s.record(req)
		s.writeAnthropicError(w, req, &APIError{Status: http.StatusInternalServerError, Type: "api_error", Message: unscripted})
		return
	}
	s.record(req)
	if !sleep(r, s.closing, rep.Delay) {
		return
	}
	if rep.Error != nil {
		s.writeAnthropicError(w, req, rep.Error)
		return
	}
	msg := s.anthropicMessage(&rep, req)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("request-id", s.id("req_"))
		writeJSON(w, msg)
		return
	}
	s.streamAnthropic(w, r, &rep, msg)
}

// unscripted is the error message for a request no reply was scripted for.
const unscripted = "fakellm: no reply was scripted for this request (the queue is empty and no handler or default answered it)"

func (s *Server) rejectAnthropic(w http.ResponseWriter, req *Request, e *APIError) {
	req.Rejected = s.anthropicErrorBody(req, e).Error.Message
	s.record(req)
	s.writeAnthropicError(w, req, e)
}

type aErrorBody struct {
	Type      string `json:"type"`
	Error     aErr   `json:"error"`
	RequestID string `json:"request_id,omitempty"`
}

type aErr struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// anthropicErrorBody fills in what the error leaves to the protocol.
func (s *Server) anthropicErrorBody(req *Request, e *APIError) aErrorBody {
	typ, msg := e.Type, e.Message
	switch e.special {
	case overflowError:
		typ = "invalid_request_error"
		tokens := 0
		if req != nil {
			tokens, _ = s.overflows(req)
		}
		limit := s.window(200000)
		msg = fmt.Sprintf("prompt is too long: %d tokens > %d maximum", max(tokens, limit+1), limit)
	case overloadedError:
		typ, msg = "overloaded_error", "Overloaded"
	}
	dt, dm := anthropicDefaults(anthropicStatus(e))
	if typ == "" {
		typ = dt
	}
	if msg == "" {
		msg = dm
	}
	return aErrorBody{Type: "error", Error: aErr{Type: typ, Message: msg}}
}

func anthropicStatus(e *APIError) int {
	if e.special == overloadedError {
		return 529
	}
	if e.Status == 0 {
		return http.StatusInternalServerError
	}
	return e.Status
}

// anthropicDefaults are the error type and message the Messages API uses for a status.
func anthropicDefaults(status int) (typ, msg string) {
	switch status {
	case 400:
		return "invalid_request_error", "Invalid request"
	case 401:
		return "authentication_error", "invalid x-api-key"
	case 402:
		return "billing_error", "Your credit balance is too low to access the Anthropic API."
	case 403:
		return "permission_error", "Your API key does not have permission to use the specified resource."
	case 404:
		return "not_found_error", "The requested resource could not be found."
	case 413:
		return "request_too_large", "Request exceeds the maximum allowed number of bytes."
	case 429:
		return "rate_limit_error", "Number of request tokens has exceeded your per-minute rate limit. Please reduce the prompt length or the maximum tokens requested, or try again later."
	case 504:
		return "timeout_error", "Request timed out"
	case 529:
		return "overloaded_error", "Overloaded"
	}
	if status >= 500 {
		return "api_error", "Internal server error"
	}
	return "invalid_request_error", http.StatusText(status)
}

func (s *Server) writeAnthropicError(w http.ResponseWriter, req *Request, e *APIError) {
	body := s.anthropicErrorBody(req, e)
	body.RequestID = s.id("req_")
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	if e.RetryAfter != "" {
		w.Header().Set("Retry-After", e.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("request-id", body.RequestID)
	w.WriteHeader(anthropicStatus(e))
	writeJSON(w, body)
}

// aMsg is a Messages API message, as returned without streaming and, with empty content, in
// message_start.
type aMsg struct {
	ID           string   `json:"id"`
	Type         string   `json:"type"`
	Role         string   `json:"role"`
	Model        string   `json:"model"`
	Content      []aOut   `json:"content"`
	StopReason   *string  `json:"stop_reason"`
	StopSequence *string  `json:"stop_sequence"`
	Usage        aUsage   `json:"usage"`
	StopDetails  *aRefuse `json:"stop_details,omitempty"`
}

type aRefuse struct {
	Type        string  `json:"type"`
	Category    *string `json:"category"`
	Explanation *string `json:"explanation"`
}

// aOut is an output content block.
type aOut struct {
	Type      string           `json:"type"`
	Text      *string          `json:"text,omitempty"`
	Thinking  *string          `json:"thinking,omitempty"`
	Signature *string          `json:"signature,omitempty"`
	Data      string           `json:"data,omitempty"`
	ID        string           `json:"id,omitempty"`
	Name      string           `json:"name,omitempty"`
	Input     *json.RawMessage `json:"input,omitempty"`
}

type aUsage struct {
	InputTokens              int    `json:"input_tokens"`
	CacheCreationInputTokens int    `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int    `json:"cache_read_input_tokens"`
	OutputTokens             int    `json:"output_tokens"`
	ServiceTier              string `json:"service_tier,omitempty"`
}

// anthropicMessage builds the complete answer for a Reply.
func (s *Server) anthropicMessage(rep *Reply, req *Request) aMsg {
	model := rep.Model
	if model == "" {
		model = req.Model
	}
	u := usageOf(rep, req)
	stop := stopReason(Anthropic, rep)
	m := aMsg{
		ID: s.id("msg_"), Type: "message", Role: "assistant", Model: model, StopReason: &stop,
		Usage: aUsage{InputTokens: u.Input, CacheCreationInputTokens: u.CacheWrite,
			CacheReadInputTokens: u.CacheRead, OutputTokens: u.Output, ServiceTier: "standard"},
		Content: []aOut{},
	}
	if stop == "refusal" {
		m.StopDetails = &aRefuse{Type: "refusal"}
	}
	if rep.Thinking != "" || rep.Signature != "" {
		sig := rep.Signature
		if sig == "" {
			sig = base64.StdEncoding.EncodeToString([]byte(s.id("fakellm-signature-")))
		}
		m.Content = append(m.Content, aOut{Type: "thinking", Thinking: ptr(rep.Thinking), Signature: &sig})
	}
	if rep.RedactedThinking != "" {
		m.Content = append(m.Content, aOut{Type: "redacted_thinking", Data: rep.RedactedThinking})
	}
	if rep.Text != "" {
		m.Content = append(m.Content, aOut{Type: "text", Text: ptr(rep.Text)})
	}
	for _, c := range rep.ToolCalls {
		id := c.ID
		if id == "" {
			id = s.id("toolu_")
		}
		in := json.RawMessage(c.argsJSON())
		if !json.Valid(in) {
			in = json.RawMessage("{}")
		}
		m.Content = append(m.Content, aOut{Type: "tool_use", ID: id, Name: c.Name, Input: &in})
	}
	return m
}

func ptr[T any](v T) *T { return &v }
