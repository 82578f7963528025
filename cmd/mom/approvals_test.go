package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// approvalsConfig asks before commands (ls is never asked about) in the terminal.
func (w *world) approvalsConfig() {
	w.writeConfig(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": "` + w.llm.URL() + `"},
  "approvals": {"mode": "ask", "allow": ["ls", "echo"]},
  "adapters": {"terminal": {"type": "cli", "busy": "queue"}},
}`)
}

// lastResult is the text of the last tool result the model was sent.
func lastResult(r *fakellm.Request) string {
	res := r.ToolResults()
	if len(res) == 0 {
		return ""
	}
	return res[len(res)-1].Text
}

// TestApprovalsInTheTerminal asks the person at the terminal before commands run: no, yes,
// always (and the same command later unasked), a pipeline with one command off the allow list,
// and a command wholly on it; every request and decision is in log.jsonl and the standing
// "always" shows in `mom approvals`.
func TestApprovalsInTheTerminal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.approvalsConfig()
	scratch := filepath.Join(w.channelDir("terminal", "local"), "scratch")
	bash := func(cmd string) fakellm.Reply {
		return fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "run " + cmd, "command": cmd}))
	}
	w.llm.Enqueue(
		bash("touch denied.txt"), fakellm.Text("ok, not done"),
		bash("touch allowed.txt"), fakellm.Text("done once"),
		bash("touch always.txt"), fakellm.Text("done always"),
		bash("touch always.txt"), fakellm.Text("done again"),
		bash("ls | rm -f nothing"), fakellm.Text("asked about the pipeline"),
		bash("ls -la | echo fine"), fakellm.Text("not asked"),
	)
	p := w.start()

	p.send("make denied.txt")
	p.waitFor("Approval needed:")
	p.waitFor("touch denied.txt")
	p.send("n")
	p.waitFor("ok, not done")
	reqs := w.waitRequests(2)
	if got := lastResult(reqs[1]); !strings.Contains(got, "not run: ada denied it") {
		t.Errorf("the model heard %q of the denied command", got)
	}
	if _, err := os.Stat(filepath.Join(scratch, "denied.txt")); err == nil {
		t.Error("the denied command ran")
	}

	p.send("make allowed.txt")
	p.waitFor("Approval needed:", 2)
	p.send("y")
	p.waitFor("done once")
	if _, err := os.Stat(filepath.Join(scratch, "allowed.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}

	p.send("make always.txt")
	p.waitFor("Approval needed:", 3)
	p.send("a")
	p.waitFor("done always")
	p.send("again")
	p.waitFor("done again")
	if n := strings.Count(p.out.String(), "Approval needed:"); n != 3 {
		t.Errorf("asked %d times by now, want 3: the command allowed always was asked about again\n%s", n, p.out)
	}

	p.send("pipeline")
	p.waitFor("Approval needed:", 4)
	p.send("no")
	p.waitFor("asked about the pipeline")
	p.send("listing")
	p.waitFor("not asked")
	if n := strings.Count(p.out.String(), "Approval needed:"); n != 4 {
		t.Errorf("asked %d times, want 4: a command on the allow list was asked about\n%s", n, p.out)
	}
	if code := p.quit(); code != 0 {
		t.Fatalf("mom exited %d\n%s", code, p.err)
	}

	log := readFile(t, filepath.Join(w.channelDir("terminal", "local"), "log.jsonl"))
	for _, want := range []string{"Asked for approval", "Denied by ada", "Allowed by ada", "Allowed always in this channel by ada", `"approval":`} {
		if !strings.Contains(log, want) {
			t.Errorf("log.jsonl lacks %q", want)
		}
	}
	res := w.mom("", "approvals", w.dir, "terminal/local")
	if res.code != 0 || !strings.Contains(res.stdout, "bash touch always.txt") || strings.Contains(res.stdout, "allowed.txt") {
		t.Fatalf("mom approvals: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	res = w.mom("", "approvals", w.dir, "terminal/local", "--remove", "bash touch always.txt")
	if res.code != 0 {
		t.Fatalf("mom approvals --remove: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if res := w.mom("", "approvals", w.dir, "terminal/local"); strings.Contains(res.stdout, "always.txt") {
		t.Errorf("the removed entry is still listed:\n%s", res.stdout)
	}
}

// TestApprovalsOneShotWithoutTerminal denies, naming --yes, a call that needs a yes when mom
// run cannot ask anyone; --yes runs it.
func TestApprovalsOneShotWithoutTerminal(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.approvalsConfig()
	w.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "write", "command": "touch one.txt"})), fakellm.Text("could not"),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "write", "command": "touch two.txt"})), fakellm.Text("did it"),
	)
	res := w.ask("make one.txt")
	reqs := w.waitRequests(2)
	if got := lastResult(reqs[1]); !strings.Contains(got, "--yes") || !strings.Contains(got, `"approvals": {"mode": "off"}`) {
		t.Errorf("the model heard %q; want the way to run unasked", got)
	}
	if !strings.Contains(res.stderr, "--yes") {
		t.Errorf("stderr does not say how to run unasked:\n%s", res.stderr)
	}
	res = w.mom("", "run", w.dir, "--yes", "-m", "make two.txt")
	if res.code != 0 || strings.TrimSpace(res.stdout) != "did it" {
		t.Fatalf("mom run --yes: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	scratch := filepath.Join(w.channelDir("run", "local"), "scratch")
	if _, err := os.Stat(filepath.Join(scratch, "two.txt")); err != nil {
		t.Errorf("--yes did not run the command: %v", err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
