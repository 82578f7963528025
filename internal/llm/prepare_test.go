package llm_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/llm"
)

func user(s string) llm.Message { return llm.NewUserText(s, time.Unix(1, 0)) }

func assistant(reason llm.StopReason, content ...llm.Content) llm.Message {
	return llm.Message{Role: llm.RoleAssistant, StopReason: reason, Content: content}
}

func result(id string) llm.Message {
	return llm.Message{Role: llm.RoleToolResult, ToolCallID: id, Content: []llm.Content{llm.Text("ok " + id)}}
}

func call(id string) llm.Content { return llm.ToolCall(id, "bash", json.RawMessage(`{}`)) }

// shape renders messages compactly: role, and the call id of tool results.
func shape(msgs []llm.Message) []string {
	var out []string
	for _, m := range msgs {
		s := string(m.Role)
		if m.Role == llm.RoleToolResult {
			s += ":" + m.ToolCallID
			if m.IsError {
				s += "!"
			}
		}
		out = append(out, s)
	}
	return out
}

func TestPrepare(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []llm.Message
		want []string
	}{
		{"clean transcript kept", []llm.Message{user("a"), assistant(llm.StopToolUse, call("1")), result("1"), assistant(llm.StopEnd, llm.Text("done"))},
			[]string{"user", "assistant", "toolResult:1", "assistant"}},
		{"error and aborted answers dropped", []llm.Message{user("a"), assistant(llm.StopError, llm.Text("x")), user("b"), assistant(llm.StopAborted, llm.Text("y"))},
			[]string{"user", "user"}},
		{"missing result synthesized before the next user message", []llm.Message{user("a"), assistant(llm.StopToolUse, call("1"), call("2")), result("2"), user("b")},
			[]string{"user", "assistant", "toolResult:2", "toolResult:1!", "user"}},
		{"missing result at the end", []llm.Message{user("a"), assistant(llm.StopToolUse, call("1"))},
			[]string{"user", "assistant", "toolResult:1!"}},
		{"stray and duplicate results dropped", []llm.Message{user("a"), result("9"), assistant(llm.StopToolUse, call("1")), result("1"), result("1")},
			[]string{"user", "assistant", "toolResult:1"}},
		{"result after a dropped answer dropped", []llm.Message{user("a"), assistant(llm.StopAborted, call("1")), result("1"), user("b")},
			[]string{"user", "user"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			in := append([]llm.Message(nil), tc.in...)
			got := llm.Prepare(tc.in)
			if !reflect.DeepEqual(shape(got), tc.want) {
				t.Errorf("Prepare = %v, want %v", shape(got), tc.want)
			}
			if !reflect.DeepEqual(in, tc.in) {
				t.Errorf("Prepare modified its input")
			}
		})
	}
}

func TestPriceApply(t *testing.T) {
	p := llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}
	u := p.Apply(llm.Usage{Input: 3120, Output: 88, CacheWrite: 3050, CacheRead: 1000})
	if u.TotalTokens != 7258 {
		t.Errorf("total tokens = %d", u.TotalTokens)
	}
	want := llm.Cost{Input: 0.00936, Output: 0.00132, CacheRead: 0.0003, CacheWrite: 0.0114375}
	want.Total = want.Input + want.Output + want.CacheRead + want.CacheWrite
	for name, pair := range map[string][2]float64{
		"input": {u.Cost.Input, want.Input}, "output": {u.Cost.Output, want.Output}, "cacheRead": {u.Cost.CacheRead, want.CacheRead},
		"cacheWrite": {u.Cost.CacheWrite, want.CacheWrite}, "total": {u.Cost.Total, want.Total},
	} {
		if d := pair[0] - pair[1]; d > 1e-12 || d < -1e-12 {
			t.Errorf("%s = %v, want %v", name, pair[0], pair[1])
		}
	}
	if z := (llm.Price{}).Apply(llm.Usage{Input: 100, Output: 5}); z.Cost.Total != 0 || z.TotalTokens != 105 {
		t.Errorf("zero price = %+v", z)
	}
}
