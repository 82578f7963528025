package openai_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/openai"
)

// TestWholeToolCallsAtIndexZero replays the stream of a compatible server (older Ollama) that
// sends every tool call complete in one chunk, each with index 0, and says "stop".
func TestWholeToolCallsAtIndexZero(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		for _, chunk := range []string{
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"llama3.1","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_a","index":0,"type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":null}]}`,
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"llama3.1","choices":[{"index":0,"delta":{"role":"assistant","content":"","tool_calls":[{"id":"call_b","index":0,"type":"function","function":{"name":"read","arguments":"{\"path\":\"x\"}"}}]},"finish_reason":null}]}`,
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"llama3.1","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":"stop"}]}`,
			`{"id":"c","object":"chat.completion.chunk","created":1,"model":"llama3.1","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":7,"total_tokens":19}}`,
			`[DONE]`,
		} {
			fmt.Fprintf(w, "data: %s\n\n", chunk)
		}
	}))
	defer ts.Close()
	p := openai.New(openai.Options{BaseURL: ts.URL + "/v1"})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "llama3.1"), userText("hi")), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := msg.ToolCalls()
	if msg.StopReason != llm.StopToolUse || len(calls) != 2 || calls[0].ID != "call_a" || string(calls[0].Arguments) != `{"command":"ls"}` ||
		calls[1].Name != "read" || string(calls[1].Arguments) != `{"path":"x"}` {
		t.Errorf("message = %+v", msg)
	}
	if msg.Usage.Input != 12 || msg.Usage.Output != 7 || msg.Model != "llama3.1" {
		t.Errorf("usage %+v model %q", msg.Usage, msg.Model)
	}
}
