package render

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// board is a platform conversation in memory: what a person would see.
type board struct {
	mu    sync.Mutex
	next  int
	msgs  map[string]*post
	order []string
	edits int
}

type post struct {
	id, thread, text string
	deleted          bool
}

func newBoard() *board { return &board{msgs: make(map[string]*post)} }

func (b *board) Post(_ context.Context, at chat.Place, text string) (string, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.next++
	id := fmt.Sprint(b.next)
	b.msgs[id] = &post{id: id, thread: at.ThreadOf, text: text}
	b.order = append(b.order, id)
	return id, nil
}

func (b *board) Edit(_ context.Context, _ chat.Place, id, text string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.msgs[id]
	if !ok || p.deleted {
		return fmt.Errorf("message_not_found")
	}
	p.text = text
	b.edits++
	return nil
}

func (b *board) Delete(_ context.Context, _ chat.Place, id string) error {
	b.mu.Lock()
	defer b.mu.Unlock()
	p, ok := b.msgs[id]
	if !ok || p.deleted {
		return fmt.Errorf("message_not_found")
	}
	p.deleted = true
	return nil
}

// visible returns the live messages under thread ("" for the top level), oldest first.
func (b *board) visible(thread string) []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	var out []string
	for _, id := range b.order {
		if p := b.msgs[id]; !p.deleted && p.thread == thread {
			out = append(out, p.text)
		}
	}
	return out
}

func (b *board) Upload(context.Context, chat.Place, chat.File) error { return nil }

func style(v Verbosity) chat.Dialect {
	return chat.Dialect{MaxText: 500, Edit: true, Delete: true, Threads: chat.InThreads, Verbosity: string(v)}
}

// play feeds a run's events to a new Progress and closes it.
func play(t *testing.T, b *board, st chat.Dialect, opts Options, events ...run.Event) {
	t.Helper()
	p := NewProgress(context.Background(), b, st, opts)
	for _, ev := range events {
		p.Event(ev)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

func assistant(text string, calls ...llm.Content) run.Event {
	m := &llm.Message{Role: llm.RoleAssistant, StopReason: llm.StopEnd}
	if text != "" {
		m.Content = append(m.Content, llm.Content{Type: llm.TypeText, Text: text})
	}
	if len(calls) > 0 {
		m.Content = append(m.Content, calls...)
		m.StopReason = llm.StopToolUse
	}
	return run.Event{Type: run.MessageEnd, Message: m}
}

func toolRun(name, label, args, output string, failed bool) []run.Event {
	return []run.Event{
		{Type: run.ToolStart, ToolName: name, Label: label, Args: json.RawMessage(args)},
		{Type: run.ToolEnd, ToolName: name, Label: label, Args: json.RawMessage(args), Output: output,
			IsError: failed, Duration: 1200 * time.Millisecond},
	}
}

func end(reason llm.StopReason, errMsg string) run.Event {
	return run.Event{Type: run.AgentEnd, StopReason: reason, ErrorMessage: errMsg,
		Usage: &llm.Usage{Input: 3100, Output: 120, Cost: llm.Cost{Total: 0.0123}}, ContextTokens: 5200, ContextWindow: 200000}
}

func TestProgressAnswerReplacesStatusAndDetailsGoToTheThread(t *testing.T) {
	b := newBoard()
	events := []run.Event{{Type: run.AgentStart}, assistant("Let me look.", llm.Content{Type: llm.TypeToolCall, ID: "t1", Name: "bash"})}
	events = append(events, toolRun("bash", "List files", `{"label":"List files","command":"ls -la"}`, "a.txt\nb.txt", false)...)
	events = append(events, assistant("There are **two** files."), end(llm.StopEnd, ""))
	play(t, b, style(Normal), Options{}, events...)

	top := b.visible("")
	if len(top) != 1 || top[0] != "There are **two** files." {
		t.Fatalf("top level = %q; want only the answer", top)
	}
	thread := b.visible("1")
	if len(thread) != 2 {
		t.Fatalf("thread = %q; want the tool detail and the usage", thread)
	}
	for _, want := range []string{"**✓ bash**: List files (1.2s)", "ls -la", "**Result:**", "a.txt\nb.txt"} {
		if !strings.Contains(thread[0], want) {
			t.Errorf("tool detail lacks %q:\n%s", want, thread[0])
		}
	}
	if !strings.Contains(thread[1], "3.1k in, 120 out") || !strings.Contains(thread[1], "$0.0123") {
		t.Errorf("usage = %q", thread[1])
	}
}

func TestProgressShowsStepsWhileRunning(t *testing.T) {
	b := newBoard()
	p := NewProgress(context.Background(), b, style(Normal), Options{})
	p.Event(run.Event{Type: run.AgentStart})
	p.Event(run.Event{Type: run.ToolStart, ToolName: "bash", Label: "Check the disk"})
	waitFor(t, "the step in the status message", func() bool {
		top := b.visible("")
		return len(top) == 1 && strings.Contains(top[0], "_Thinking…_\n_→ Check the disk_")
	})
	p.Event(end(llm.StopEnd, ""))
	p.Close(context.Background())
}

func TestProgressSilentRemovesEverything(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "Check", `{"command":"true"}`, "", false)
	events = append(events, assistant("[SILENT]"), end(llm.StopEnd, ""))
	play(t, b, style(Normal), Options{}, events...)
	if top, thread := b.visible(""), b.visible("1"); len(top)+len(thread) != 0 {
		t.Errorf("after [SILENT]: top %q, thread %q; want nothing", top, thread)
	}
}

func TestProgressErrorIsBriefWithDetailInThread(t *testing.T) {
	b := newBoard()
	long := "anthropic: 529 overloaded_error: Overloaded\nrequest id req_123"
	play(t, b, style(Quiet), Options{}, end(llm.StopError, long))
	top := b.visible("")
	if len(top) != 1 || !strings.Contains(top[0], "Sorry, something went wrong: anthropic: 529 overloaded_error: Overloaded") ||
		strings.Contains(top[0], "req_123") {
		t.Errorf("top = %q", top)
	}
	thread := b.visible("1")
	if len(thread) != 1 || !strings.Contains(thread[0], "req_123") {
		t.Errorf("thread = %q; want the full error, even when quiet", thread)
	}
}

func TestProgressQuietShowsOnlyTheAnswer(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "Check", `{"command":"true"}`, "ok", false)
	events = append(events, assistant("All good."), end(llm.StopEnd, ""))
	play(t, b, style(Quiet), Options{}, events...)
	if top := b.visible(""); len(top) != 1 || top[0] != "All good." {
		t.Errorf("top = %q", top)
	}
	if thread := b.visible("1"); len(thread) != 0 {
		t.Errorf("quiet thread = %q; want nothing", thread)
	}
}

func TestProgressVerboseShowsThinking(t *testing.T) {
	b := newBoard()
	m := &llm.Message{Role: llm.RoleAssistant, StopReason: llm.StopEnd, Content: []llm.Content{
		{Type: llm.TypeThinking, Thinking: "the user wants a number"}, {Type: llm.TypeText, Text: "42"}}}
	play(t, b, style(Verbose), Options{}, run.Event{Type: run.MessageEnd, Message: m}, end(llm.StopEnd, ""))
	thread := b.visible("1")
	if len(thread) == 0 || !strings.Contains(thread[0], "the user wants a number") {
		t.Errorf("thread = %q; want the thinking", thread)
	}
}

func TestProgressLongAnswerContinuesInTheThread(t *testing.T) {
	b := newBoard()
	var answer strings.Builder
	for i := range 60 {
		fmt.Fprintf(&answer, "Paragraph %d says something worth keeping.\n\n", i)
	}
	play(t, b, style(Quiet), Options{}, assistant(answer.String()), end(llm.StopEnd, ""))
	top, thread := b.visible(""), b.visible("1")
	if len(top) != 1 || !strings.HasSuffix(top[0], "_(continued in the thread)_") {
		t.Fatalf("top = %q", top)
	}
	all := strings.Join(append(top, thread...), "\n")
	for i := range 60 {
		if !strings.Contains(all, fmt.Sprintf("Paragraph %d says", i)) {
			t.Errorf("paragraph %d was lost", i)
		}
	}
	for _, m := range append(top, thread...) {
		if n := len([]rune(m)); n > 500 {
			t.Errorf("a message has %d characters, over the limit of 500", n)
		}
	}
}

func TestProgressInsideAThread(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "Check", `{"command":"true"}`, "ok", false)
	events = append(events, assistant("Done checking."), end(llm.StopEnd, ""))
	play(t, b, style(Normal), Options{At: chat.Place{ThreadOf: "root"}}, events...)
	if top := b.visible(""); len(top) != 0 {
		t.Errorf("top = %q; the reply belongs in the thread", top)
	}
	if got := b.visible("root"); len(got) != 1 || got[0] != "Done checking." {
		t.Errorf("thread = %q; want only the answer (details would bury the conversation)", got)
	}
}

func TestProgressStoppedKeepsWhatWasSaid(t *testing.T) {
	b := newBoard()
	play(t, b, style(Normal), Options{}, assistant("Halfway there"), end(llm.StopAborted, ""))
	if top := b.visible(""); len(top) != 1 || top[0] != "Halfway there\n\n_Stopped._" {
		t.Errorf("top = %q", top)
	}
}

func TestToolDetailArgs(t *testing.T) {
	for _, tt := range []struct{ tool, args, want string }{
		{"bash", `{"label":"x","command":"ls"}`, "ls"},
		{"read", `{"label":"x","path":"/w/a.go","offset":10,"limit":5}`, "/w/a.go:10-14"},
		{"write", `{"label":"x","path":"a.txt","content":"hi\nthere"}`, "content:\nhi\nthere\npath: a.txt"},
		{"edit", "not json", "not json"},
	} {
		if got := formatArgs(tt.tool, json.RawMessage(tt.args)); got != tt.want {
			t.Errorf("formatArgs(%s, %s) = %q; want %q", tt.tool, tt.args, got, tt.want)
		}
	}
	if got := codeBlock("a ``` b", 100); !strings.HasPrefix(got, "````\n") {
		t.Errorf("a fence inside the block must not close it: %q", got)
	}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

func quotes(v Verbosity) chat.Dialect {
	return chat.Dialect{MaxText: 500, Edit: true, Delete: true, Threads: chat.Quotes, Verbosity: string(v)}
}

// TestProgressQuotesDigestFollowsTheAnswer: on a platform of quotes the answer quotes the
// message that asked, and with normal verbosity the tool calls and usage follow it in one
// short message in the channel, without arguments or output.
func TestProgressQuotesDigestFollowsTheAnswer(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "List files", `{"command":"ls -la"}`, "a.txt", false)
	events = append(events, toolRun("read", "Read notes", `{"path":"notes.md"}`, "secret words", true)...)
	events = append(events, assistant("Two files."), end(llm.StopEnd, ""))
	play(t, b, quotes(Normal), Options{ReplyTo: "asked"}, events...)
	if got := b.visible("asked"); len(got) != 1 || got[0] != "Two files." {
		t.Errorf("quoting the question: %q; want the answer alone", got)
	}
	top := b.visible("")
	if len(top) != 1 {
		t.Fatalf("channel = %q; want one digest", top)
	}
	for _, want := range []string{"_✓ bash: List files (1.2s)_", "_✗ read: Read notes (1.2s)_", "3.1k in, 120 out"} {
		if !strings.Contains(top[0], want) {
			t.Errorf("the digest lacks %q:\n%s", want, top[0])
		}
	}
	if strings.Contains(top[0], "ls -la") || strings.Contains(top[0], "secret words") {
		t.Errorf("the digest shows arguments or output:\n%s", top[0])
	}
}

// TestProgressQuotesQuietAndLong: quiet shows only the answer, also when the run failed, and
// a long answer goes on below it without quoting the question again.
func TestProgressQuotesQuietAndLong(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "Check", `{"command":"true"}`, "ok", false)
	events = append(events, assistant("All good."), end(llm.StopEnd, ""))
	play(t, b, quotes(Quiet), Options{ReplyTo: "asked"}, events...)
	if got, top := b.visible("asked"), b.visible(""); len(got) != 1 || got[0] != "All good." || len(top) != 0 {
		t.Errorf("quiet: quoting %q, channel %q; want only the answer", got, top)
	}

	b = newBoard()
	play(t, b, quotes(Quiet), Options{ReplyTo: "asked"}, end(llm.StopError, "overloaded\nrequest id req_1"))
	if got, top := b.visible("asked"), b.visible(""); len(got) != 1 || !strings.Contains(got[0], "something went wrong: overloaded") || len(top) != 0 {
		t.Errorf("failed: quoting %q, channel %q; want only the answer's note", got, top)
	}

	b = newBoard()
	var answer strings.Builder
	for i := range 60 {
		fmt.Fprintf(&answer, "Paragraph %d says something worth keeping.\n\n", i)
	}
	play(t, b, quotes(Quiet), Options{ReplyTo: "asked"}, assistant(answer.String()), end(llm.StopEnd, ""))
	first, rest := b.visible("asked"), b.visible("")
	if len(first) != 1 || !strings.HasSuffix(first[0], "_(continued below)_") || len(rest) == 0 {
		t.Fatalf("quoting %q, then %d more; want the first part quoting, the rest below", first, len(rest))
	}
	all := strings.Join(append(first, rest...), "\n")
	for i := range 60 {
		if !strings.Contains(all, fmt.Sprintf("Paragraph %d says", i)) {
			t.Errorf("paragraph %d was lost", i)
		}
	}
}

// TestProgressQuotesSilent: [SILENT] takes the status message back and posts no digest.
func TestProgressQuotesSilent(t *testing.T) {
	b := newBoard()
	events := toolRun("bash", "Check", `{"command":"true"}`, "", false)
	events = append(events, assistant("[SILENT]"), end(llm.StopEnd, ""))
	play(t, b, quotes(Normal), Options{ReplyTo: "asked"}, events...)
	if got, top := b.visible("asked"), b.visible(""); len(got)+len(top) != 0 {
		t.Errorf("after [SILENT]: %q, %q; want nothing", got, top)
	}
}
