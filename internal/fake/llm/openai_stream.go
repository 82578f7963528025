package fakellm

import (
	"encoding/json"
	"net/http"
)

// oChunk is a chat.completion.chunk. Usage is null on every chunk when the client asked for
// usage (stream_options.include_usage) and absent otherwise, as OpenAI sends it.
type oChunk struct {
	ID                string          `json:"id"`
	Object            string          `json:"object"`
	Created           int64           `json:"created"`
	Model             string          `json:"model"`
	SystemFingerprint string          `json:"system_fingerprint"`
	Choices           []oChoice       `json:"choices"`
	Usage             json.RawMessage `json:"usage,omitempty"`
}

type oChoice struct {
	Index        int            `json:"index"`
	Delta        map[string]any `json:"delta"`
	Logprobs     *struct{}      `json:"logprobs"`
	FinishReason *string        `json:"finish_reason"`
}

type oToolDelta struct {
	Index    int            `json:"index"`
	ID       string         `json:"id,omitempty"`
	Type     string         `json:"type,omitempty"`
	Function oFunctionDelta `json:"function"`
}

type oFunctionDelta struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

// streamOpenAI sends a completion as Chat Completions streams it: a role chunk, reasoning,
// content and tool-call chunks, a chunk with the finish reason, the usage chunk when asked
// for, and data: [DONE].
func (s *Server) streamOpenAI(w http.ResponseWriter, r *http.Request, rep *Reply, c *completion, includeUsage bool) {
	sw := newSSEWriter(s, w, r, rep)
	h := http.Header{}
	h.Set("x-request-id", s.id("req_"))
	if !sw.start(h) {
		return
	}
	chunk := func(delta map[string]any, finish *string) event {
		ch := oChunk{ID: c.id, Object: "chat.completion.chunk", Created: c.created, Model: c.model,
			SystemFingerprint: c.fingerprint, Choices: []oChoice{{Index: 0, Delta: delta, FinishReason: finish}}}
		if includeUsage {
			ch.Usage = json.RawMessage("null")
		}
		return event{Data: ch}
	}
	n := rep.ChunkSize
	first := map[string]any{"role": "assistant", "content": nil}
	if rep.Text != "" {
		first["content"] = ""
	}
	evs := []event{chunk(first, nil)}
	for _, t := range chunks(rep.Thinking, n) {
		evs = append(evs, chunk(map[string]any{c.reasoningField(): t}, nil))
	}
	for _, t := range chunks(rep.Text, n) {
		evs = append(evs, chunk(map[string]any{"content": t}, nil))
	}
	for i, call := range rep.ToolCalls {
		evs = append(evs, chunk(map[string]any{"tool_calls": []oToolDelta{{Index: i, ID: c.callIDs[i], Type: "function",
			Function: oFunctionDelta{Name: call.Name}}}}, nil))
		for _, a := range chunks(call.argsJSON(), n) {
			evs = append(evs, chunk(map[string]any{"tool_calls": []oToolDelta{{Index: i, Function: oFunctionDelta{Arguments: a}}}}, nil))
		}
	}
	if !sw.sendAll(evs) || !sw.hold() {
		return
	}
	if rep.StreamError != nil {
		sw.send(event{Data: openAIErrorBody(rep.StreamError)})
		return
	}
	end := []event{chunk(map[string]any{}, &c.finish)}
	if includeUsage {
		u := json.RawMessage(marshal(c.usageJSON()))
		end = append(end, event{Data: oChunk{ID: c.id, Object: "chat.completion.chunk", Created: c.created,
			Model: c.model, SystemFingerprint: c.fingerprint, Choices: []oChoice{}, Usage: u}})
	}
	sw.sendAll(append(end, event{Data: "[DONE]"}))
}
