package anthropic_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
)

// replay serves one streamed answer made of events, each "name" and its data, and hands the
// request's body to got.
func replay(t *testing.T, got *[]byte, events ...[2]string) *anthropic.Provider {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if got != nil {
			*got, _ = io.ReadAll(r.Body)
		}
		w.Header().Set("Content-Type", "text/event-stream")
		for _, ev := range events {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", ev[0], ev[1])
		}
	}))
	t.Cleanup(ts.Close)
	return anthropic.New(anthropic.Options{APIKey: "k", BaseURL: ts.URL})
}

// TestEventsMomDoesNotKnowAreSkipped: pings, comments, a server tool's blocks and event
// types added to the API later pass without harm, and the answer around them is whole.
func TestEventsMomDoesNotKnowAreSkipped(t *testing.T) {
	p := replay(t, nil,
		[2]string{"message_start", `{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"claude-x","content":[],"usage":{"input_tokens":10,"output_tokens":1}}}`},
		[2]string{"ping", `{"type": "ping"}`},
		[2]string{"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"server_tool_use","id":"s1","name":"web_search","input":{}}}`},
		[2]string{"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"q\":1}"}}`},
		[2]string{"content_block_stop", `{"type":"content_block_stop","index":0}`},
		[2]string{"content_block_start", `{"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}`},
		[2]string{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Found it."}}`},
		[2]string{"content_block_delta", `{"type":"content_block_delta","index":1,"delta":{"type":"citations_delta","citation":{}}}`},
		[2]string{"content_block_stop", `{"type":"content_block_stop","index":1}`},
		[2]string{"brand_new_event", `{"type":"brand_new_event","what":"ever"}`},
		[2]string{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":7}}`},
		[2]string{"message_stop", `{"type":"message_stop"}`},
	)
	msg, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-x"), userText("hi")), nil)
	if err != nil {
		t.Fatal(err)
	}
	if msg.Text() != "Found it." || len(msg.Content) != 1 || msg.StopReason != llm.StopEnd || msg.Usage.Input != 10 || msg.Usage.Output != 7 {
		t.Errorf("message = %+v", msg)
	}
}

// TestGarbledEventIsAClearError: an event whose data is not JSON fails the answer with an
// error that quotes it, and may be retried.
func TestGarbledEventIsAClearError(t *testing.T) {
	p := replay(t, nil,
		[2]string{"message_start", `{"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":1,"output_tokens":1}}}`},
		[2]string{"content_block_start", `<html>502 Bad Gateway</html>`},
	)
	_, err := p.Stream(ctxT(t), request(llm.Lookup("anthropic", "claude-x"), userText("hi")), nil)
	var e *llm.Error
	if !errors.As(err, &e) || e.Kind != llm.ErrTransient || !strings.Contains(e.Message, "<html>502 Bad Gateway</html>") {
		t.Errorf("err = %v; want a transient error quoting the event", err)
	}
}

// TestToolSchemaKeepsEveryKeyword: a tool's schema goes out whole, as an object schema, and
// one that is not a JSON object goes out as an object without properties.
func TestToolSchemaKeepsEveryKeyword(t *testing.T) {
	var body []byte
	p := replay(t, &body,
		[2]string{"message_start", `{"type":"message_start","message":{"model":"claude-x","usage":{"input_tokens":1,"output_tokens":1}}}`},
		[2]string{"message_delta", `{"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":1}}`},
		[2]string{"message_stop", `{"type":"message_stop"}`},
	)
	req := request(llm.Lookup("anthropic", "claude-x"), userText("hi"))
	req.Tools = []llm.Tool{
		{Name: "rich", Parameters: json.RawMessage(`{"properties":{"a":{"$ref":"#/$defs/x"}},"required":["a"],"$defs":{"x":{"type":"string"}},"additionalProperties":false}`)},
		{Name: "broken", Parameters: json.RawMessage(`[1,2]`)},
	}
	if _, err := p.Stream(ctxT(t), req, nil); err != nil {
		t.Fatal(err)
	}
	var sent struct {
		Tools []struct {
			Name        string         `json:"name"`
			InputSchema map[string]any `json:"input_schema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &sent); err != nil || len(sent.Tools) != 2 {
		t.Fatalf("tools sent: %s (%v)", body, err)
	}
	rich, broken := sent.Tools[0].InputSchema, sent.Tools[1].InputSchema
	if rich["type"] != "object" || rich["$defs"] == nil || rich["additionalProperties"] != false || fmt.Sprint(rich["required"]) != "[a]" {
		t.Errorf("rich schema sent as %v", rich)
	}
	if len(broken) != 1 || broken["type"] != "object" {
		t.Errorf("a schema that is no object sent as %v", broken)
	}
}
