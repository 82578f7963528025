package fakellm

import (
	"net/http"
	"time"
)

// serveOpenAI answers POST /v1/chat/completions.
func (s *Server) serveOpenAI(w http.ResponseWriter, r *http.Request, req *Request) {
	missing := "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY). You can obtain an API key from https://platform.openai.com/account/api-keys."
	if p := s.checkKey(bearer(r.Header), missing, "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys."); p != "" {
		code := "invalid_api_key"
		if p == missing {
			code = ""
		}
		s.rejectOpenAI(w, req, &APIError{Status: http.StatusUnauthorized, Type: "invalid_request_error", Code: code, Message: p})
		return
	}
	body, problem := decodeOpenAI(req)
	if problem != "" {
		s.rejectOpenAI(w, req, &APIError{Status: http.StatusBadRequest, Type: "invalid_request_error", Message: problem})
		return
	}
	if _, over := s.overflows(req); over {
		s.rejectOpenAI(w, req, &APIError{Status: http.StatusBadRequest, special: overflowError})
		return
	}
	rep, ok := s.next(req)
	if !ok {
		req.Unscripted = true
		s.record(req)
		s.writeOpenAIError(w, &APIError{Status: http.StatusInternalServerError, Type: "server_error", Message: unscripted})
		return
	}
	s.record(req)
	if !sleep(r, s.closing, rep.Delay) {
		return
	}
	if rep.Error != nil {
		s.writeOpenAIError(w, rep.Error)
		return
	}
	c := s.openAICompletion(&rep, req)
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("x-request-id", s.id("req_"))
		writeJSON(w, c.full())
		return
	}
	includeUsage := body.StreamOptions != nil && body.StreamOptions.IncludeUsage
	s.streamOpenAI(w, r, &rep, c, includeUsage)
}

func (s *Server) rejectOpenAI(w http.ResponseWriter, req *Request, e *APIError) {
	req.Rejected = openAIErrorBody(e).Error.Message
	s.record(req)
	s.writeOpenAIError(w, e)
}

type oErrorBody struct {
	Error oErr `json:"error"`
}

type oErr struct {
	Message string  `json:"message"`
	Type    string  `json:"type"`
	Param   *string `json:"param"`
	Code    *string `json:"code"`
}

// openAIErrorBody fills in what the error leaves to the protocol.
func openAIErrorBody(e *APIError) oErrorBody {
	typ, msg, code := e.Type, e.Message, e.Code
	var param *string
	switch e.special {
	case overflowError:
		typ, code, param = "invalid_request_error", "context_length_exceeded", ptr("messages")
		msg = "Your input exceeds the context window of this model. Please adjust your input and try again."
	case overloadedError:
		typ, msg = "server_error", "The server is overloaded or not ready yet."
	}
	dt, dm, dc := openAIDefaults(openAIStatus(e))
	if typ == "" {
		typ = dt
	}
	if msg == "" {
		msg = dm
	}
	if code == "" {
		code = dc
	}
	body := oErrorBody{Error: oErr{Message: msg, Type: typ, Param: param}}
	if code != "" {
		body.Error.Code = &code
	}
	return body
}

func openAIStatus(e *APIError) int {
	if e.special == overloadedError {
		return http.StatusServiceUnavailable
	}
	if e.Status == 0 {
		return http.StatusInternalServerError
	}
	return e.Status
}

// openAIDefaults are the error type, message and code OpenAI uses for a status.
func openAIDefaults(status int) (typ, msg, code string) {
	switch status {
	case 401:
		return "invalid_request_error", "Incorrect API key provided.", "invalid_api_key"
	case 403:
		return "invalid_request_error", "You are not allowed to sample from this model", ""
	case 404:
		return "invalid_request_error", "The model does not exist or you do not have access to it.", "model_not_found"
	case 429:
		return "requests", "Rate limit reached for requests. Please try again later.", "rate_limit_exceeded"
	case 503:
		return "server_error", "The server is overloaded or not ready yet.", ""
	}
	if status >= 500 {
		return "server_error", "The server had an error while processing your request. Sorry about that!", ""
	}
	return "invalid_request_error", http.StatusText(status), ""
}

func (s *Server) writeOpenAIError(w http.ResponseWriter, e *APIError) {
	for k, v := range e.Header {
		w.Header()[k] = v
	}
	if e.RetryAfter != "" {
		w.Header().Set("Retry-After", e.RetryAfter)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("x-request-id", s.id("req_"))
	w.WriteHeader(openAIStatus(e))
	writeJSON(w, openAIErrorBody(e))
}

// completion is a Reply resolved for the OpenAI protocol: ids, model, usage, stop reason.
type completion struct {
	id, model, fingerprint string
	created                int64
	rep                    *Reply
	callIDs                []string
	finish                 string
	usage                  Usage
}

func (s *Server) openAICompletion(rep *Reply, req *Request) *completion {
	c := &completion{
		id: s.id("chatcmpl-"), model: rep.Model, fingerprint: "fp_fakellm", created: time.Now().Unix(),
		rep: rep, finish: stopReason(OpenAI, rep), usage: usageOf(rep, req),
	}
	if c.model == "" {
		c.model = req.Model
	}
	for _, call := range rep.ToolCalls {
		id := call.ID
		if id == "" {
			id = s.id("call_")
		}
		c.callIDs = append(c.callIDs, id)
	}
	return c
}

// oUsage is a Chat Completions usage object.
type oUsage struct {
	PromptTokens      int            `json:"prompt_tokens"`
	CompletionTokens  int            `json:"completion_tokens"`
	TotalTokens       int            `json:"total_tokens"`
	PromptDetails     map[string]int `json:"prompt_tokens_details"`
	CompletionDetails map[string]int `json:"completion_tokens_details"`
}

func (c *completion) usageJSON() oUsage {
	u := c.usage
	prompt := u.Input + u.CacheRead + u.CacheWrite
	details := map[string]int{"cached_tokens": u.CacheRead, "audio_tokens": 0}
	if u.CacheWrite > 0 {
		details["cache_write_tokens"] = u.CacheWrite
	}
	return oUsage{
		PromptTokens: prompt, CompletionTokens: u.Output, TotalTokens: prompt + u.Output,
		PromptDetails:     details,
		CompletionDetails: map[string]int{"reasoning_tokens": 0, "audio_tokens": 0, "accepted_prediction_tokens": 0, "rejected_prediction_tokens": 0},
	}
}

func (c *completion) reasoningField() string {
	if c.rep.ReasoningField != "" {
		return c.rep.ReasoningField
	}
	return "reasoning_content"
}

// full is the non-streaming chat.completion object.
func (c *completion) full() map[string]any {
	msg := map[string]any{"role": "assistant", "content": nil, "refusal": nil}
	if c.rep.Text != "" {
		msg["content"] = c.rep.Text
	}
	if c.rep.Thinking != "" {
		msg[c.reasoningField()] = c.rep.Thinking
	}
	if len(c.rep.ToolCalls) > 0 {
		var calls []map[string]any
		for i, call := range c.rep.ToolCalls {
			calls = append(calls, map[string]any{"id": c.callIDs[i], "type": "function",
				"function": map[string]any{"name": call.Name, "arguments": call.argsJSON()}})
		}
		msg["tool_calls"] = calls
	}
	return map[string]any{
		"id": c.id, "object": "chat.completion", "created": c.created, "model": c.model,
		"choices": []map[string]any{{"index": 0, "message": msg, "logprobs": nil, "finish_reason": c.finish}},
		"usage":   c.usageJSON(), "system_fingerprint": c.fingerprint,
	}
}
