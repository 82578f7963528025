package compact

import (
	"context"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

// The context size is the last answer's usage plus an estimate of what came after it; after a
// compaction the stale usage of kept answers is not trusted, and a pruning's savings come off.
func TestContextTokens(t *testing.T) {
	c := newConvo(t)
	c.user(words(100))
	c.answer("ok", 5000)
	call := c.call("bash", map[string]any{"command": "ls"})
	c.answer("", 6000, call)
	c.result(call, words(40)) // 40 tokens after the last usage
	if got := ContextTokens(c.sess.Entries()); got != 6040 {
		t.Errorf("ContextTokens = %d, want 6040", got)
	}
	if got := EstimateContext(c.sess.Context()); got != 6040 {
		t.Errorf("EstimateContext = %d, want 6040", got)
	}
	// A failed answer neither reports usage nor is sent.
	c.add(llm.Message{Role: llm.RoleAssistant, StopReason: llm.StopError, Content: []llm.Content{llm.Text(words(50))}, Usage: llm.Usage{Input: 9}})
	if got := ContextTokens(c.sess.Entries()); got != 6040 {
		t.Errorf("after a failed answer: %d, want 6040", got)
	}
	if _, err := c.sess.AppendCustom(PruneType, PruneMark{Through: call.ID, SavedTokens: 30}); err != nil {
		t.Fatal(err)
	}
	if got := ContextTokens(c.sess.Entries()); got != 6010 {
		t.Errorf("after pruning 30: %d, want 6010", got)
	}

	c.user(words(300))
	c.answer(words(300), 0)
	c.user(words(10))
	c.answer(words(10), 0)
	compactOnce(t, c, &recorder{})
	got := ContextTokens(c.sess.Entries())
	want := 0
	for _, m := range c.sess.Context() {
		want += EstimateTokens(m)
	}
	if got != want || got > 1000 {
		t.Errorf("after compaction: %d, want the estimate of the new context, %d", got, want)
	}
}

// Old tool results beyond the protected newest output are pruned in the view only; read
// results are never pruned; a mark whose result was compacted away prunes nothing.
func TestPrune(t *testing.T) {
	c := newConvo(t)
	c.user("go")
	var calls []llm.Content
	for i := range 12 {
		name := "bash"
		if i == 1 {
			name = "read"
		}
		call := c.call(name, map[string]any{"path": "/x"})
		calls = append(calls, call)
		c.answer("", 0, call)
		c.result(call, words(1000))
	}
	view := c.sess.Context()
	// Window 16,000: protect 4,000 tokens of output (the newest four results), prune when it
	// saves at least 2,000.
	mark, ok := PlanPrune(view, 16000)
	if !ok {
		t.Fatal("nothing to prune")
	}
	if mark.Through != calls[7].ID {
		t.Errorf("pruned through %s, want %s (the newest result beyond the protected four)", mark.Through, calls[7].ID)
	}
	pruned := ApplyPrune(view, mark)
	n := 0
	for i, m := range pruned {
		if m.Role != llm.RoleToolResult {
			continue
		}
		if strings.HasPrefix(m.Text(), "[Output truncated - 1000 tokens]") {
			n++
			if m.ToolName == "read" {
				t.Errorf("message %d: a read result was pruned", i)
			}
		}
	}
	if n != 7 { // results 0 and 2..7; 1 is a read
		t.Errorf("%d results pruned, want 7", n)
	}
	if !strings.HasPrefix(view[2].Text(), "abc") || c.sess.Context()[2].Text() != view[2].Text() {
		t.Error("pruning changed the session's own messages")
	}
	if EstimateContext(pruned) >= EstimateContext(view)-mark.SavedTokens+10 {
		t.Errorf("pruned view %d tokens, unpruned %d, saved %d", EstimateContext(pruned), EstimateContext(view), mark.SavedTokens)
	}
	if _, again := PlanPrune(pruned, 16000); again {
		t.Error("pruning the pruned view again")
	}
	if got := ApplyPrune(view, PruneMark{Through: "call_gone"}); &got[0] != &view[0] {
		t.Error("a mark for a result no longer in the context changed the view")
	}
	if _, small := PlanPrune(view[:8], 16000); small {
		t.Error("pruned although it saves less than the minimum")
	}
}

// BenchmarkCompact10000 compacts a 10,000-entry context (tool calls, results and chatter) with
// a model that answers at once: planning, serializing, appending the entry and rebuilding the
// context, all but the model's time.
func BenchmarkCompact10000(b *testing.B) {
	s := Settings{ReserveTokens: 16384, KeepRecentTokens: 20000}
	for b.Loop() {
		b.StopTimer()
		c := newConvo(b)
		for c.sess.Len() < 10000 {
			c.user("[mario]: " + words(30))
			call := c.call("bash", map[string]any{"label": "run", "command": "make test"})
			c.answer("running the tests", 0, call)
			c.result(call, words(200))
			c.answer("All green. "+words(30), 0)
		}
		b.StartTimer()
		p, err := Prepare(c.sess.Entries(), s, 200000)
		if err != nil {
			b.Fatal(err)
		}
		res, err := Summarize(context.Background(), &recorder{}, p, s)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.sess.AppendCompaction(res.Summary, p.FirstKeptID, p.TokensBefore, res.Details); err != nil {
			b.Fatal(err)
		}
		if len(c.sess.Context()) > 1000 {
			b.Fatal("context not compacted")
		}
	}
}
