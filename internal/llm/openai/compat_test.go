package openai_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
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

// TestWholeCompletionFromAServerThatDoesNotStream: a server that ignores "stream": true and
// answers with one JSON completion is understood all the same.
func TestWholeCompletionFromAServerThatDoesNotStream(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		fmt.Fprint(w, `{"id":"c","object":"chat.completion","created":1,"model":"tiny","choices":[{"index":0,"message":{"role":"assistant","content":"Let me look.","reasoning_content":"ls first","tool_calls":[{"id":"call_1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}}]},"finish_reason":"tool_calls"}],"usage":{"prompt_tokens":30,"completion_tokens":9,"total_tokens":39}}`)
	}))
	defer ts.Close()
	p := openai.New(openai.Options{BaseURL: ts.URL + "/v1/"})
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("openai", "tiny"), userText("hi")), nil)
	if err != nil {
		t.Fatal(err)
	}
	calls := msg.ToolCalls()
	if msg.StopReason != llm.StopToolUse || msg.Text() != "Let me look." || len(calls) != 1 || string(calls[0].Arguments) != `{"command":"ls"}` ||
		msg.Usage.Input != 30 || msg.Usage.Output != 9 || msg.Content[0].Thinking != "ls first" {
		t.Errorf("message = %+v", msg)
	}
}

// TestGarbledStreamIsAClearError: a chunk that is not JSON (a proxy's HTML page in the middle
// of the stream) fails the answer with an error that shows what came, and may be retried.
func TestGarbledStreamIsAClearError(t *testing.T) {
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		fmt.Fprint(w, `data: {"model":"m","choices":[{"index":0,"delta":{"content":"Hel"}}]}`+"\n\n")
		fmt.Fprint(w, "data: <html>502 Bad Gateway</html>\n\n")
	}))
	defer ts.Close()
	_, err := openai.New(openai.Options{BaseURL: ts.URL + "/v1"}).Stream(ctxT(t), request(llm.Lookup("openai", "m"), userText("hi")), nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrTransient || !strings.Contains(e.Message, "<html>502 Bad Gateway</html>") {
		t.Errorf("err = %v; want a transient error quoting the chunk", err)
	}
}
