package compact

import (
	"context"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

var small = Settings{ReserveTokens: 100, KeepRecentTokens: 150}

// compactOnce plans, summarizes and appends a compaction, as the agent does.
func compactOnce(t *testing.T, c *convo, m Model) (*Plan, Result) {
	t.Helper()
	p, err := Prepare(c.sess.Entries(), small, 0)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Summarize(context.Background(), m, p, small)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.sess.AppendCompaction(res.Summary, p.FirstKeptID, p.TokensBefore, res.Details); err != nil {
		t.Fatal(err)
	}
	return p, res
}

// The first compaction sends the conversation in <conversation> with the structured prompt;
// the second sends the new messages (including those the first one kept) with the previous
// summary and the update prompt, and the context then starts with the new summary.
func TestSummaryThenUpdate(t *testing.T) {
	c := newConvo(t)
	c.user("[mario]: please fix the build in /src/main.go " + words(60))
	read := c.call("read", map[string]any{"label": "read", "path": "/src/main.go"})
	c.answer("looking", 0, read)
	c.result(read, "package main "+words(60))
	edit := c.call("edit", map[string]any{"label": "fix", "path": "/src/main.go", "oldText": "a", "newText": "b"})
	c.answer("fixing", 0, edit)
	c.result(edit, "ok")
	c.answer("Fixed the build.", 0)
	// About 160 tokens from here on: the first compaction keeps them (keep 150).
	kept1 := c.user("[mario]: thanks, now the docs " + words(100))
	c.answer("Docs updated. "+words(20), 0)
	c.user("[mario]: great " + words(10))
	c.answer("You're welcome. "+words(10), 0)

	rec := &recorder{}
	p1, res1 := compactOnce(t, c, rec)
	if len(rec.prompts) != 1 {
		t.Fatalf("%d summary requests, want 1", len(rec.prompts))
	}
	first := rec.prompts[0]
	for _, want := range []string{"<conversation>\n[User]: [mario]: please fix the build", "[Assistant tool calls]: read(label=\"read\", path=\"/src/main.go\")",
		"[Tool result]: package main", "[Assistant]: Fixed the build.", "## Goal", "## Constraints & Preferences", "## Progress",
		"## Key Decisions", "## Next Steps", "## Critical Context"} {
		if !strings.Contains(first, want) {
			t.Errorf("first summary request lacks %q:\n%s", want, first)
		}
	}
	if strings.Contains(first, "<previous-summary>") || strings.Contains(first, "great") {
		t.Errorf("first summary request has a previous summary or a kept message:\n%s", first)
	}
	if !strings.Contains(rec.systems[0], "Do NOT continue the conversation") {
		t.Errorf("system prompt: %s", rec.systems[0])
	}
	if rec.max[0] != 256 { // 80% of a 100-token reserve, at least 256
		t.Errorf("max tokens %d", rec.max[0])
	}
	if p1.FirstKeptID != kept1 {
		t.Errorf("first kept %s, want %s", p1.FirstKeptID, kept1)
	}
	if !strings.HasSuffix(res1.Summary, "<modified-files>\n/src/main.go\n</modified-files>") || strings.Contains(res1.Summary, "<read-files>") {
		t.Errorf("summary file lists (main.go was read and edited, so it is modified only):\n%s", res1.Summary)
	}
	ctx := c.sess.Context()
	if !strings.Contains(ctx[0].Text(), "compacted into the following summary") || !strings.Contains(ctx[0].Text(), "summary 1") {
		t.Fatalf("context starts with %q", ctx[0].Text())
	}

	// More conversation, then a second compaction.
	c.user("[mario]: and the tests " + words(60))
	w := c.call("write", map[string]any{"label": "w", "path": "/src/main_test.go", "content": "x"})
	c.answer("writing", 0, w)
	c.result(w, "written")
	c.answer("Tests written. "+words(60), 0)
	c.user("[mario]: ship it " + words(120))
	c.answer("Shipped. "+words(30), 0)

	_, res2 := compactOnce(t, c, rec)
	second := rec.prompts[1]
	for _, want := range []string{"<previous-summary>\n## Goal\nsummary 1", "NEW conversation messages", "PRESERVE all existing information",
		"[User]: [mario]: thanks, now the docs", "[User]: [mario]: and the tests"} {
		if !strings.Contains(second, want) {
			t.Errorf("second summary request lacks %q:\n%s", want, second)
		}
	}
	if strings.Contains(second, "please fix the build") {
		t.Errorf("second request summarizes again what the first summary covers:\n%s", second)
	}
	for _, want := range []string{"summary 2", "<modified-files>\n/src/main.go\n/src/main_test.go\n</modified-files>"} {
		if !strings.Contains(res2.Summary, want) {
			t.Errorf("second summary lacks %q:\n%s", want, res2.Summary)
		}
	}
	if strings.Count(res2.Summary, "<modified-files>") != 1 {
		t.Errorf("second summary repeats the file lists:\n%s", res2.Summary)
	}
	ctx = c.sess.Context()
	if !strings.Contains(ctx[0].Text(), "summary 2") || strings.Contains(ctx[0].Text(), "summary 1") {
		t.Errorf("context starts with %q", ctx[0].Text())
	}
	assertPaired(t, ctx)
}

// A turn too big to keep is summarized in two parts: the history before it and the turn's
// beginning, joined under the split-turn heading.
func TestSplitTurnSummaries(t *testing.T) {
	c := newConvo(t)
	c.user("[ada]: hello " + words(50))
	c.answer("hi "+words(50), 0)
	c.user("[ada]: migrate the database")
	for range 6 {
		call := c.call("bash", map[string]any{"command": "migrate step"})
		c.answer("step", 0, call)
		c.result(call, words(100))
	}
	rec := &recorder{}
	p, res := compactOnce(t, c, rec)
	if len(p.TurnPrefix) == 0 || len(rec.prompts) != 2 {
		t.Fatalf("turn prefix %d messages, %d requests; want a split turn", len(p.TurnPrefix), len(rec.prompts))
	}
	if !strings.Contains(rec.prompts[0], "[User]: [ada]: hello") || strings.Contains(rec.prompts[0], "migrate the database") {
		t.Errorf("history request:\n%s", rec.prompts[0])
	}
	if !strings.Contains(rec.prompts[1], "[User]: [ada]: migrate the database") || !strings.Contains(rec.prompts[1], "PREFIX of a turn") {
		t.Errorf("turn prefix request:\n%s", rec.prompts[1])
	}
	want := "## Goal\nsummary 1\n\n---\n\n**Turn Context (split turn):**\n\n## Goal\nsummary 2"
	if res.Summary != want {
		t.Errorf("summary %q, want %q", res.Summary, want)
	}
	assertPaired(t, c.sess.Context())
}

// Images are never sent to the summarizer, and long tool output is cut.
func TestSerializeLeavesOutImages(t *testing.T) {
	msgs := []llm.Message{
		{Role: llm.RoleUser, Content: []llm.Content{llm.Text("look at this"), llm.Image(strings.Repeat("QUJD", 1000), "image/png")}},
		{Role: llm.RoleToolResult, Content: []llm.Content{llm.Text(strings.Repeat("x", 5000))}},
	}
	got := Serialize(msgs)
	if strings.Contains(got, "QUJD") || !strings.Contains(got, "[User]: look at this\n[image]") {
		t.Errorf("image not replaced:\n%.200s", got)
	}
	if !strings.Contains(got, "[... 3000 more characters truncated]") || len(got) > 2200 {
		t.Errorf("tool result not cut (%d chars)", len(got))
	}
	if EstimateTokens(msgs[0]) != (len("look at this")+imageChars+3)/4 {
		t.Errorf("image estimate %d", EstimateTokens(msgs[0]))
	}
}

// A conversation bigger than the window is cut from its oldest end for the summary request.
func TestSummaryRequestFitsWindow(t *testing.T) {
	c := newConvo(t)
	c.user("[ada]: the oldest message")
	for range 40 {
		c.answer(words(400), 0)
		c.user(words(400))
	}
	c.answer("last", 0)
	p, err := Prepare(c.sess.Entries(), Settings{ReserveTokens: 1000, KeepRecentTokens: 1000}, 8000)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	if _, err := Summarize(context.Background(), rec, p, Settings{ReserveTokens: 1000, KeepRecentTokens: 1000}); err != nil {
		t.Fatal(err)
	}
	if len(rec.prompts[0]) > 8000*4 || strings.Contains(rec.prompts[0], "the oldest message") ||
		!strings.Contains(rec.prompts[0], "earlier characters of the conversation were left out") {
		t.Errorf("summary request of %d chars was not fitted to the window", len(rec.prompts[0]))
	}
}

// An empty answer is an error, not an empty summary.
func TestEmptySummaryFails(t *testing.T) {
	c := newConvo(t)
	c.user(words(300))
	c.answer(words(300), 0)
	c.user("next")
	c.answer("ok", 0)
	p, err := Prepare(c.sess.Entries(), small, 0)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Summarize(context.Background(), &recorder{answer: func(int) string { return " \n" }}, p, small)
	if err == nil || !strings.Contains(err.Error(), "empty summary") {
		t.Fatalf("err = %v", err)
	}
}

// assertPaired fails when a tool result in ctx does not follow the call it answers.
func assertPaired(t *testing.T, ctx []llm.Message) {
	t.Helper()
	calls := map[string]bool{}
	for i, m := range ctx {
		for _, c := range m.ToolCalls() {
			calls[c.ID] = true
		}
		if m.Role == llm.RoleToolResult && !calls[m.ToolCallID] {
			t.Fatalf("context message %d is a tool result without its call %s", i, m.ToolCallID)
		}
	}
}
