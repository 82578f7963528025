package main

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// compactionWorld is a world whose model has a 4,000-token window, compacted above 3,000
// tokens keeping the newest 300.
func compactionWorld(t *testing.T) *world {
	t.Helper()
	w := newWorld(t)
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": %q, "contextWindow": 4000},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "compaction": {"reserveTokens": 1000, "keepRecentTokens": 300},
  "adapters": {"terminal": {"type": "cli"}},
}`, w.llm.URL()))
	return w
}

func compactionWords(n int) string { return strings.Repeat("abc ", n) }

// compactionSay runs one prompt in terminal/local with the given replies, expects the answer
// and returns what mom printed.
func (w *world) compactionSay(prompt, answer string, replies ...fakellm.Reply) result {
	w.t.Helper()
	w.llm.Enqueue(replies...)
	res := w.mom("", "run", w.dir, "-c", "terminal/local", "-m", prompt)
	if res.code != 0 || strings.TrimSpace(res.stdout) != answer {
		w.t.Fatalf("mom run %q: exit %d, answer %q\n%s", prompt, res.code, res.stdout, res.stderr)
	}
	return res
}

// compactionFull is an answer reporting 3,500 tokens of context: over the threshold.
func compactionFull(text string) fakellm.Reply {
	return fakellm.Reply{Text: text, Usage: &fakellm.Usage{Input: 3490, Output: 10}}
}

func (w *world) compactionHistory() {
	w.t.Helper()
	w.compactionSay("alpha "+compactionWords(150), "A-answer", fakellm.Text("A-answer"))
	w.compactionSay("bravo "+compactionWords(150), "B-answer",
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_b", Name: "bash", Args: map[string]any{"label": "b", "command": "echo bravo-tool"}}),
		fakellm.Text("B-answer"))
}

func compactionFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestCompactionKillDuringSummary kills mom with SIGKILL while the summary request is in
// flight: context.jsonl is unchanged up to that point, loads on restart, the conversation goes
// on, and the next compaction appends its entry after everything that was there.
func TestCompactionKillDuringSummary(t *testing.T) {
	w := compactionWorld(t)
	w.compactionHistory()
	ctxPath := filepath.Join(w.channelDir("terminal", "local"), "context.jsonl")
	before := compactionFile(t, ctxPath)

	hold := make(chan struct{})
	defer close(hold)
	n := len(w.llm.Requests())
	w.llm.Enqueue(compactionFull("C-answer"), fakellm.Reply{Text: "## Goal\nnever arrives", Hold: hold})
	p := w.start()
	p.send("charlie " + compactionWords(150))
	reqs := w.waitRequests(n + 2)
	if !strings.Contains(reqs[n+1].LastUserText(), "<conversation>") {
		t.Fatalf("the request in flight is not the summary request:\n%.300s", reqs[n+1].LastUserText())
	}
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait()

	killed := compactionFile(t, ctxPath)
	if !bytes.HasPrefix(killed, before) {
		t.Fatal("context.jsonl was rewritten, not appended to")
	}
	for _, l := range apptest.JSONLines(t, ctxPath) {
		if l["type"] == "compaction" {
			t.Fatal("a compaction entry without a summary")
		}
	}

	// After the restart the conversation goes on, and the next full turn compacts.
	n = len(w.llm.Requests())
	res := w.compactionSay("delta "+compactionWords(300), "D-answer", compactionFull("D-answer"), fakellm.Text("## Goal\nSUMMARY-AFTER-RESTART"))
	if !strings.Contains(res.stderr, "Compacting context…") || !strings.Contains(res.stderr, "Compacted context: ") {
		t.Errorf("the terminal did not show the compaction:\n%s", res.stderr)
	}
	reqs = w.llm.Requests()
	if reqs[n].Rejected != "" || !strings.Contains(compactionRequestText(reqs[n]), "charlie") || !strings.Contains(compactionRequestText(reqs[n]), "C-answer") {
		t.Fatalf("the first request after the restart (rejected %q) lacks the earlier conversation", reqs[n].Rejected)
	}
	if sum := reqs[n+1].LastUserText(); !strings.HasPrefix(sum, "<conversation>\n") || !strings.Contains(sum, "alpha") || !strings.Contains(sum, "[Tool result]: bravo-tool") {
		t.Fatalf("summary request:\n%.300s", reqs[n+1].LastUserText())
	}
	after := compactionFile(t, ctxPath)
	if !bytes.HasPrefix(after, killed) {
		t.Fatal("context.jsonl was rewritten by the compaction")
	}
	lines := apptest.JSONLines(t, ctxPath)
	if last := lines[len(lines)-1]; last["type"] != "compaction" || !strings.Contains(fmt.Sprint(last["summary"]), "SUMMARY-AFTER-RESTART") {
		t.Fatalf("last entry %v, want the compaction", last)
	}

	w.compactionSay("echo", "E-answer", fakellm.Text("E-answer"))
	last := w.llm.LastRequest()
	if last.Rejected != "" || !strings.Contains(last.Messages[0].Content[0].Text, "SUMMARY-AFTER-RESTART") || strings.Contains(compactionRequestText(last), "alpha") {
		t.Fatalf("after the compaction (rejected %q) the context is:\n%.500s", last.Rejected, compactionRequestText(last))
	}
}

// TestCompactCommand compacts a channel by hand, explains a channel that does not exist, and
// refuses while a mom runs on the data directory.
func TestCompactCommand(t *testing.T) {
	w := compactionWorld(t)
	w.compactionHistory()
	w.compactionSay("charlie "+compactionWords(150), "C-answer", fakellm.Text("C-answer"))
	ctxPath := filepath.Join(w.channelDir("terminal", "local"), "context.jsonl")
	before := compactionFile(t, ctxPath)

	w.llm.Enqueue(fakellm.Text("## Goal\nMANUAL-SUMMARY"))
	res := w.mom("", "compact", w.dir, "terminal/local")
	if res.code != 0 || !strings.Contains(res.stdout, "Compacted terminal/local: about ") || !strings.Contains(res.stdout, "kept the newest") ||
		!strings.Contains(res.stdout, "MANUAL-SUMMARY") {
		t.Fatalf("mom compact: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stderr, "UNSANDBOXED") {
		t.Errorf("mom compact runs no command, yet warned about the sandbox:\n%s", res.stderr)
	}
	if !bytes.HasPrefix(compactionFile(t, ctxPath), before) {
		t.Fatal("context.jsonl was rewritten")
	}
	res = w.mom("", "compact", w.dir, "terminal/local")
	if res.code != 0 || !strings.Contains(res.stdout, "nothing to compact") {
		t.Fatalf("compacting again: exit %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	for _, cmd := range []string{"compact", "download"} {
		res = w.mom("", cmd, w.dir, "terminal/nope")
		if res.code != 1 || !strings.Contains(res.stderr, "has no conversation terminal/nope (it has: terminal/local)") {
			t.Fatalf("mom %s of an unknown channel: exit %d\n%s", cmd, res.code, res.stderr)
		}
	}
	if _, err := os.Stat(w.channelDir("terminal", "nope")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("asking about an unknown channel made its directory: %v", err)
	}

	p := w.start()
	p.waitForErr("mom is running")
	res = w.mom("", "compact", w.dir, "terminal/local")
	if res.code != 1 || !strings.Contains(res.stderr, "another mom is already using") || !strings.Contains(res.stderr, "compacts each channel by itself") {
		t.Fatalf("with mom running: exit %d\n%s", res.code, res.stderr)
	}
	p.quit()
}

func compactionRequestText(r *fakellm.Request) string {
	var b strings.Builder
	for _, m := range r.Messages {
		for _, c := range m.Content {
			b.WriteString(c.Text + "\n")
		}
	}
	return b.String()
}
