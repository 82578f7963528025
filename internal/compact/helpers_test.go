package compact

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

// convo builds a real session file by hand, one entry at a time.
type convo struct {
	t    testing.TB
	sess *session.Session
	n    int
}

func newConvo(t testing.TB) *convo {
	t.Helper()
	s, err := session.Open(confined.Root(t.TempDir()), "context.jsonl", "/")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return &convo{t: t, sess: s}
}

// words returns about tokens tokens of text (four characters each).
func words(tokens int) string { return strings.Repeat("abc ", tokens) }

func (c *convo) add(m llm.Message) string {
	c.t.Helper()
	e, err := c.sess.AppendMessage(m)
	if err != nil {
		c.t.Fatal(err)
	}
	return e.ID
}

func (c *convo) user(text string) string {
	return c.add(llm.Message{Role: llm.RoleUser, Content: []llm.Content{llm.Text(text)}})
}

// answer adds an assistant message; usage, if positive, is the context size it reports.
func (c *convo) answer(text string, usage int, calls ...llm.Content) string {
	m := llm.Message{Role: llm.RoleAssistant, Content: []llm.Content{llm.Text(text)}, StopReason: llm.StopEnd,
		Usage: llm.Usage{Input: usage}}
	if len(calls) > 0 {
		m.Content = append(m.Content, calls...)
		m.StopReason = llm.StopToolUse
	}
	return c.add(m)
}

// call returns a tool call block with a fresh id.
func (c *convo) call(name string, args map[string]any) llm.Content {
	c.n++
	raw, _ := json.Marshal(args)
	return llm.ToolCall("call_"+strings.Repeat("x", c.n), name, raw)
}

func (c *convo) result(call llm.Content, text string) string {
	return c.add(llm.Message{Role: llm.RoleToolResult, ToolCallID: call.ID, ToolName: call.Name,
		Content: []llm.Content{llm.Text(text)}})
}

func (c *convo) custom() string {
	c.t.Helper()
	e, err := c.sess.AppendCustom("mom.logSync", map[string]int{"offset": c.n})
	if err != nil {
		c.t.Fatal(err)
	}
	return e.ID
}

// index returns the position of the entry id on the branch.
func (c *convo) index(id string) int {
	for i, e := range c.sess.Entries() {
		if e.ID == id {
			return i
		}
	}
	c.t.Fatalf("entry %s is not on the branch", id)
	return -1
}

// recorder stands in for the model: it answers every summary request with a numbered text
// and remembers the requests.
type recorder struct {
	mu      sync.Mutex
	prompts []string
	systems []string
	max     []int
	answer  func(n int) string
}

func (r *recorder) Summarize(_ context.Context, system, prompt string, maxTokens int) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.prompts = append(r.prompts, prompt)
	r.systems = append(r.systems, system)
	r.max = append(r.max, maxTokens)
	if r.answer != nil {
		return r.answer(len(r.prompts)), nil
	}
	return "## Goal\nsummary " + string(rune('0'+len(r.prompts))), nil
}
