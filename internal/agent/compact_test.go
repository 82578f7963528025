package agent

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/compact"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/anthropic"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/tools"
)

// A 4,000-token window with a 1,000-token reserve compacts above 3,000 tokens and keeps the
// newest 300.
var tinyWindow = CompactionSettings{Enabled: true, ReserveTokens: 1000, KeepRecentTokens: 300}

// newCompactRig is newRig with a tinyWindow context window and compaction settings.
func newCompactRig(t *testing.T, cs CompactionSettings) *rig {
	t.Helper()
	r := newRig(t)
	exec, err := sandbox.NewHost(r.store.Workspace())
	if err != nil {
		t.Fatal(err)
	}
	model := llm.Lookup("anthropic", "claude-sonnet-4-5")
	model.ContextWindow = 4000
	r.agent = New(r.store, Options{
		Provider: anthropic.New(anthropic.Options{APIKey: "k", BaseURL: r.llm.URL()}),
		Model:    model, Exec: exec, Tools: tools.Builtin(), Location: time.UTC, Compaction: cs,
		Retry: RetryPolicy{MaxRetries: 2, BaseDelay: time.Millisecond, MaxDelay: 20 * time.Millisecond},
	})
	return r
}

func compactWords(tokens int) string { return strings.Repeat("abc ", tokens) }

// compactRun has someone say text and the agent answer it with the scripted replies.
func (r *rig) compactRun(text string, replies ...fakellm.Reply) (Result, *events) {
	r.t.Helper()
	r.llm.Enqueue(replies...)
	m, end := r.say("mario", text)
	return r.handle(m, end)
}

// compactFull is an answer reporting a context of 3,500 tokens: over the threshold.
func compactFull(text string) fakellm.Reply {
	return fakellm.Reply{Text: text, Usage: &fakellm.Usage{Input: 3490, Output: 10}}
}

// compactHistory gives the channel two earlier runs worth summarizing, one with a tool call.
func (r *rig) compactHistory() {
	r.t.Helper()
	r.compactRun("alpha "+compactWords(150), fakellm.Text("A-answer "+compactWords(100)))
	r.compactRun("bravo "+compactWords(150),
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_b", Name: "bash", Args: map[string]any{"label": "b", "command": "echo bravo-tool"}}),
		fakellm.Text("B-answer"))
}

func (e *events) compactions() []run.Event {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []run.Event
	for _, ev := range e.evs {
		if ev.Type == run.CompactionStart || ev.Type == run.CompactionEnd {
			out = append(out, ev)
		}
	}
	return out
}

func compactRequestText(req *fakellm.Request) string {
	var b strings.Builder
	for _, m := range req.Messages {
		for _, c := range m.Content {
			b.WriteString(c.Text + "\n")
		}
	}
	return b.String()
}

// A turn that leaves the context over the threshold is followed by a compaction: the summary
// request carries the old conversation, the next request starts with the summary and the kept
// messages (their tool call and result still paired), and a second compaction updates the
// first summary instead of summarizing it.
func TestCompactionAtThreshold(t *testing.T) {
	r := newCompactRig(t, tinyWindow)
	r.compactHistory()
	res, ev := r.compactRun("charlie "+compactWords(150), compactFull("C-answer "+compactWords(50)), fakellm.Text("## Goal\nSUMMARY-1"))
	if res.StopReason != llm.StopEnd || res.Text != "C-answer "+compactWords(50) {
		t.Fatalf("result %+v", res)
	}
	types := strings.Join(ev.types(), " ")
	if !strings.HasSuffix(types, "turn_end compaction_start compaction_end agent_end") {
		t.Fatalf("events: %s", types)
	}
	c := ev.compactions()
	end := c[1].Compaction
	if c[0].Compaction.Reason != run.ReasonThreshold || c[1].ErrorMessage != "" || end.TokensBefore < 3500 || end.TokensAfter >= 1000 || end.TokensAfter <= 0 {
		t.Fatalf("compaction_end %+v (error %q)", end, c[1].ErrorMessage)
	}
	reqs := r.llm.Requests()
	sum := reqs[len(reqs)-1]
	prompt := sum.LastUserText()
	for _, want := range []string{"[mario]: alpha", "[Assistant]: A-answer", "## Constraints & Preferences", "## Critical Context"} {
		if !strings.Contains(prompt, want) {
			t.Errorf("summary request lacks %q:\n%.600s", want, prompt)
		}
	}
	if strings.Contains(prompt, "bravo") || len(sum.Tools) != 0 || !strings.Contains(sum.System, "context summarization assistant") {
		t.Errorf("summary request: tools %v, system %q, kept messages summarized: %v", sum.Tools, sum.System, strings.Contains(prompt, "bravo"))
	}

	// The next request: the summary, then the kept messages from "bravo" on.
	res, ev = r.compactRun("delta "+compactWords(300), compactFull("D-answer"), fakellm.Text("## Goal\nSUMMARY-2"))
	if res.StopReason != llm.StopEnd {
		t.Fatalf("run after the compaction: %+v", res)
	}
	reqs = r.llm.Requests()
	next := reqs[len(reqs)-2]
	if next.Rejected != "" {
		t.Fatalf("the request after the compaction was rejected: %s", next.Rejected)
	}
	first := next.Messages[0].Content[0].Text
	if !strings.HasPrefix(first, "The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nSUMMARY-1") {
		t.Fatalf("first message after compaction: %.200q", first)
	}
	if !strings.Contains(next.Messages[0].Content[len(next.Messages[0].Content)-1].Text+compactRequestText(next), "[mario]: bravo") || strings.Contains(compactRequestText(next), "alpha") {
		t.Errorf("kept messages wrong:\n%.800s", compactRequestText(next))
	}
	if b, ok := next.ToolResult("toolu_b"); !ok || !strings.Contains(b.Text, "bravo-tool") || len(next.ToolUses()) != 1 {
		t.Errorf("the kept tool call and its result: %+v %v", b, next.ToolUses())
	}

	// The second compaction updates the first summary with the messages kept last time.
	second := reqs[len(reqs)-1].LastUserText()
	for _, want := range []string{"<previous-summary>\n## Goal\nSUMMARY-1\n</previous-summary>", "NEW conversation messages", "[mario]: bravo", "[Assistant tool calls]: bash(command=\"echo bravo-tool\", label=\"b\")", "[Tool result]: bravo-tool"} {
		if !strings.Contains(second, want) {
			t.Errorf("second summary request lacks %q:\n%.800s", want, second)
		}
	}
	if strings.Contains(second, "alpha") {
		t.Error("the second summary request summarizes again what the first summary covers")
	}
	if len(ev.compactions()) != 2 {
		t.Fatalf("second run: %s", strings.Join(ev.types(), " "))
	}
	r.compactRun("echo", fakellm.Text("E-answer"))
	last := r.llm.LastRequest()
	if first := last.Messages[0].Content[0].Text; !strings.Contains(first, "SUMMARY-2") || strings.Contains(first, "SUMMARY-1") {
		t.Fatalf("after the second compaction the context starts with %.200q", first)
	}
	if last.Rejected != "" {
		t.Fatal(last.Rejected)
	}
}

// A request the model refuses as too long is compacted and sent once more.
func TestOverflowCompactsAndRetries(t *testing.T) {
	r := newCompactRig(t, tinyWindow)
	r.compactHistory()
	before := len(r.llm.Requests())
	res, ev := r.compactRun("charlie "+compactWords(150), fakellm.Overflow(), fakellm.Text("## Goal\nSUMMARY"), fakellm.Text("C-answer"))
	if res.StopReason != llm.StopEnd || res.Text != "C-answer" {
		t.Fatalf("result %+v", res)
	}
	reqs := r.llm.Requests()[before:]
	if len(reqs) != 3 {
		t.Fatalf("%d requests, want the refused one, the summary and the retry", len(reqs))
	}
	if !strings.Contains(reqs[1].LastUserText(), "<conversation>") {
		t.Errorf("second request is not the summary request")
	}
	retry := reqs[2]
	if !strings.Contains(retry.Messages[0].Content[0].Text, "SUMMARY") || !strings.Contains(retry.LastUserText(), "charlie") || retry.Rejected != "" {
		t.Errorf("retry: rejected %q, messages:\n%.500s", retry.Rejected, compactRequestText(retry))
	}
	c := ev.compactions()
	if len(c) != 2 || c[0].Compaction.Reason != run.ReasonOverflow || c[1].ErrorMessage != "" {
		t.Fatalf("compaction events %+v", c)
	}
	if n := strings.Count(strings.Join(ev.types(), " "), "message_end"); n != 1 {
		t.Errorf("%d message_end events, want only the retried answer's", n)
	}
}

// When the retry is refused too, the run ends with an error that says so plainly, and is
// retried only once.
func TestOverflowAfterCompactionIsReported(t *testing.T) {
	r := newCompactRig(t, tinyWindow)
	r.compactHistory()
	before := len(r.llm.Requests())
	res, _ := r.compactRun("charlie "+compactWords(150), fakellm.Overflow(), fakellm.Text("## Goal\nSUMMARY"), fakellm.Overflow())
	if res.StopReason != llm.StopError || !strings.Contains(res.ErrorMessage, "still too long for the model's context window after compacting it") ||
		!strings.Contains(res.ErrorMessage, "prompt is too long") {
		t.Fatalf("result %+v", res)
	}
	if n := len(r.llm.Requests()) - before; n != 3 {
		t.Fatalf("%d requests, want 3", n)
	}
}

// With compaction off, an overflow ends the run and says how to get out of it.
func TestOverflowWithCompactionOff(t *testing.T) {
	r := newCompactRig(t, CompactionSettings{})
	r.compactHistory()
	res, ev := r.compactRun("charlie", compactFull("C"), fakellm.Overflow())
	if res.StopReason != llm.StopEnd || len(ev.compactions()) != 0 {
		t.Fatalf("a full context compacted although compaction is off: %+v", ev.types())
	}
	res, _ = r.compactRun("delta", fakellm.Overflow())
	if res.StopReason != llm.StopError || !strings.Contains(res.ErrorMessage, "automatic compaction is off") {
		t.Fatalf("result %+v", res)
	}
}

// A summary request that fails leaves the context as it was and says why; the run still
// ends with its answer.
func TestFailedCompactionKeepsTheContext(t *testing.T) {
	r := newCompactRig(t, CompactionSettings{Enabled: true, ReserveTokens: 1000, KeepRecentTokens: 300})
	r.compactHistory()
	sess, err := r.ch.Session()
	if err != nil {
		t.Fatal(err)
	}
	res, ev := r.compactRun("charlie "+compactWords(150), compactFull("C-answer"), fakellm.Fail(401, "authentication_error", "invalid x-api-key"))
	if res.StopReason != llm.StopEnd || res.Text != "C-answer" {
		t.Fatalf("result %+v", res)
	}
	c := ev.compactions()
	if len(c) != 2 || !strings.Contains(c[1].ErrorMessage, "invalid x-api-key") {
		t.Fatalf("compaction events %+v", c)
	}
	if strings.Contains(sess.Context()[0].Text(), "compacted") {
		t.Fatal("a failed compaction changed the context")
	}
}

// mom compact: compacts on demand, and says when there is nothing to do.
func TestCompactOnDemand(t *testing.T) {
	r := newCompactRig(t, CompactionSettings{ReserveTokens: 1000, KeepRecentTokens: 300}) // not Enabled
	if _, err := r.agent.Compact(context.Background(), r.ch, "", "", nil); !errors.Is(err, compact.ErrNothingToCompact) {
		t.Fatalf("empty channel: %v", err)
	}
	r.compactHistory()
	r.compactRun("charlie "+compactWords(150), fakellm.Text("C-answer"))
	r.llm.Enqueue(fakellm.Text("## Goal\nMANUAL"))
	ev := &events{}
	info, err := r.agent.Compact(context.Background(), r.ch, "", "", ev.sink)
	if err != nil {
		t.Fatal(err)
	}
	if info.Reason != run.ReasonManual || info.Kept == 0 || info.TokensAfter >= info.TokensBefore || !strings.Contains(info.Summary, "MANUAL") {
		t.Fatalf("info %+v", info)
	}
	if len(ev.compactions()) != 2 {
		t.Fatalf("events %v", ev.types())
	}
	if _, err := r.agent.Compact(context.Background(), r.ch, "", "", nil); !errors.Is(err, compact.ErrNothingToCompact) {
		t.Fatalf("right after compacting: %v", err)
	}
}
