package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTransientErrorsAreRetried answers 429 (with Retry-After) and 529 before succeeding; mom
// retries both, says so, and answers.
func TestTransientErrorsAreRetried(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(fakellm.RateLimited("0"), fakellm.Overloaded(), fakellm.Text("third time lucky"))
	res := w.ask("hello")
	if strings.TrimSpace(res.stdout) != "third time lucky" {
		t.Fatalf("answer = %q\n%s", res.stdout, res.stderr)
	}
	if n := len(w.llm.Requests()); n != 3 {
		t.Errorf("model got %d requests, want 3", n)
	}
	if strings.Count(res.stderr, "retrying") != 2 {
		t.Errorf("retries were not reported:\n%s", res.stderr)
	}
}

// TestStreamCutMidwayIsRetried drops the connection in the middle of an answer.
func TestStreamCutMidwayIsRetried(t *testing.T) {
	w := newWorld(t)
	w.llm.Enqueue(fakellm.Reply{Text: "this answer will be cut off", CutAfter: 3}, fakellm.Text("complete answer"))
	res := w.ask("hello")
	if strings.TrimSpace(res.stdout) != "complete answer" {
		t.Fatalf("answer = %q\n%s", res.stdout, res.stderr)
	}
}

// TestBadKeyEndsWithAClearMessage: a 401 is not retried and the person learns why.
func TestBadKeyEndsWithAClearMessage(t *testing.T) {
	w := newWorld(t, withAPIKey("wrong-key"))
	res := w.mom("", "run", w.dir, "-m", "hello")
	if res.code != 1 {
		t.Fatalf("exit status %d, want 1\n%s", res.code, res.stderr)
	}
	if n := len(w.llm.Requests()); n != 1 {
		t.Errorf("model got %d requests, want 1 (no retries)", n)
	}
	if !strings.Contains(res.stderr, "error: ") || !strings.Contains(res.stderr, "401") || !strings.Contains(res.stderr, "x-api-key") ||
		!strings.Contains(res.stderr, `the key is "apiKey" in the "model" section of `+filepath.Join(w.dir, "config.json")) {
		t.Errorf("stderr does not explain the 401 and where the key came from:\n%s", res.stderr)
	}
	// The history says how the question ended, as people were told.
	lines := apptest.JSONLines(t, filepath.Join(w.channelDir("run", "local"), "log.jsonl"))
	if len(lines) != 2 || lines[0]["text"] != "hello" ||
		!strings.HasPrefix(lines[1]["text"].(string), "Sorry, something went wrong: ") || !strings.Contains(lines[1]["text"].(string), "401") {
		t.Errorf("log.jsonl = %v; want the question and the failure", lines)
	}
}

// TestStopDuringToolLeavesPairedTranscript stops a run while its command runs. The command is
// killed, the run ends, and the next request is valid: the tool call has its result.
func TestStopDuringToolLeavesPairedTranscript(t *testing.T) {
	w := newWorld(t)
	marker := filepath.Join(t.TempDir(), "started")
	w.llm.Enqueue(
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_long", Name: "bash", Args: map[string]any{
			"label": "wait for a long time", "command": "touch " + marker + " && sleep 300"}}),
		fakellm.Text("back again"),
	)
	p := w.start()
	p.send("do the long thing")
	p.waitFor("→ wait for a long time")
	apptest.WaitForFile(t, marker)
	p.send("stop")
	p.waitFor("Stopped.")
	p.send("are you there?")
	p.waitFor("back again")
	if code := p.quit(); code != 0 {
		t.Fatalf("exit status %d\n%s", code, p.err)
	}
	second := w.llm.Requests()[1]
	if second.Rejected != "" {
		t.Fatalf("the request after the stop was invalid: %s", second.Rejected)
	}
	res, ok := second.ToolResult("toolu_long")
	if !ok || !res.IsError || !strings.Contains(strings.ToLower(res.Text), "abort") {
		t.Errorf("result of the stopped call = %+v, want an error saying it was aborted", res)
	}
	if !strings.Contains(second.LastUserText(), "are you there?") {
		t.Errorf("last user text = %q", second.LastUserText())
	}
}

// TestKillDuringRunLosesNothing kills mom with SIGKILL while the model is answering, then
// starts it again: both files load and the conversation goes on with everything acknowledged.
func TestKillDuringRunLosesNothing(t *testing.T) {
	w := newWorld(t)
	hold := make(chan struct{})
	defer close(hold)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_1", Name: "bash", Args: map[string]any{"label": "note", "command": "echo noted"}}),
		fakellm.Reply{Text: "I will remember 4", Hold: hold},
	)
	p := w.start()
	p.send("remember the number 42")
	w.waitRequests(2) // the tool ran and its result went back; the answer is streaming
	if err := p.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	p.wait()

	w.llm.Enqueue(fakellm.Text("It was 42."))
	res := w.mom("", "run", w.dir, "-c", "terminal/local", "-m", "which number?")
	if res.code != 0 || strings.TrimSpace(res.stdout) != "It was 42." {
		t.Fatalf("after the restart: exit %d, answer %q\n%s", res.code, res.stdout, res.stderr)
	}
	third := w.llm.Requests()[2]
	if third.Rejected != "" {
		t.Fatalf("the request after the restart was invalid: %s", third.Rejected)
	}
	var all []string
	for _, m := range third.Messages {
		for _, b := range m.Content {
			all = append(all, b.Text)
		}
	}
	joined := strings.Join(all, "\n")
	if !strings.Contains(joined, "remember the number 42") || !strings.Contains(joined, "noted") {
		t.Errorf("the earlier conversation is missing after the restart:\n%s", joined)
	}
	apptest.JSONLines(t, filepath.Join(w.channelDir("terminal", "local"), "log.jsonl"))
	apptest.JSONLines(t, filepath.Join(w.channelDir("terminal", "local"), "context.jsonl"))
}

// TestBadConfigIsRefused: each broken config makes mom exit 1 with a message naming the
// problem.
func TestBadConfigIsRefused(t *testing.T) {
	cases := []struct {
		name, config, want string
	}{
		{"unknown key", `{"adapters": {"terminal": {"type": "cli", "bussy": "queue"}}}`, `unknown key "bussy"`},
		{"unset variable", `{"model": {"apiKey": "${MOM_TEST_UNSET_KEY}"}, "adapters": {"terminal": {"type": "cli"}}}`,
			"model.apiKey: environment variable MOM_TEST_UNSET_KEY is not set"},
		{"invalid JSON", "{\n  \"adapters\": {\"terminal\": {\"type\": \"cli\",, }}\n}", "config.json:2:"},
		{"unknown adapter type", `{"adapters": {"x": {"type": "carrier-pigeon"}}}`, `unknown adapter type "carrier-pigeon"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t)
			w.writeConfig(c.config)
			for _, args := range [][]string{{w.dir}, {"check", w.dir}, {"run", w.dir, "-m", "hi"}} {
				res := w.mom("", args...)
				if res.code != 1 || !strings.Contains(res.stderr, c.want) {
					t.Errorf("mom %s: exit %d, stderr:\n%s\nwant exit 1 and %q", args[0], res.code, res.stderr, c.want)
				}
			}
			if n := len(w.llm.Requests()); n != 0 {
				t.Errorf("a broken config still reached the model (%d requests)", n)
			}
		})
	}
}

// TestOneShotWithoutAKeySaysSoOnce: `mom run` with no model key explains what to set, once,
// and exits 1 without starting anything.
func TestOneShotWithoutAKeySaysSoOnce(t *testing.T) {
	w := newWorld(t)
	w.writeConfig(`{"model": {"provider": "anthropic"}, "adapters": {"terminal": {"type": "cli"}}}`)
	res := w.mom("", "run", w.dir, "-m", "hi")
	if res.code != 1 || strings.Count(res.stderr, "ANTHROPIC_API_KEY") != 1 || !strings.Contains(res.stderr, "mom has no API key for anthropic") {
		t.Errorf("exit %d, stderr:\n%s\nwant exit 1 and the explanation once", res.code, res.stderr)
	}
}

// TestConfigThatCannotServeIsRefusedByCheckToo: a config that parses but cannot start mom
// (no adapter, two terminals) is refused by `mom` and by `mom check` alike, while `mom run`,
// which needs no adapter, answers.
func TestConfigThatCannotServeIsRefusedByCheckToo(t *testing.T) {
	cases := map[string]string{
		`"adapters": {}`: "has no adapters",
		`"adapters": {"a": {"type": "cli"}, "b": {"type": "cli"}}`: "adapters a and b are both terminals",
	}
	for adapters, want := range cases {
		w := newWorld(t)
		config := fmt.Sprintf(`{"model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q}, %s}`, w.llm.URL(), adapters)
		w.writeConfig(config)
		for _, args := range [][]string{{w.dir}, {"check", w.dir}} {
			if res := w.mom("", args...); res.code != 1 || !strings.Contains(res.stderr, want) {
				t.Errorf("%s\nmom %s: exit %d, stderr:\n%s\nwant exit 1 and %q", config, args[0], res.code, res.stderr, want)
			}
		}
		w.llm.Enqueue(fakellm.Text("fine"))
		if res := w.mom("", "run", w.dir, "-m", "hi"); res.code != 0 || !strings.Contains(res.stdout, "fine") {
			t.Errorf("%s\nmom run: exit %d, stdout %q, stderr:\n%s", config, res.code, res.stdout, res.stderr)
		}
	}
}

// TestFirstRunCreatesConfigAndExplainsTheKey starts mom on an empty directory with no key in
// the environment: it writes the commented config, says which variable to set, and still
// opens the terminal chat, where a message gets the same explanation.
func TestFirstRunCreatesConfigAndExplainsTheKey(t *testing.T) {
	w := newWorld(t)
	dir := filepath.Join(t.TempDir(), "fresh")
	res := w.mom("hello\n", dir)
	if res.code != 0 {
		t.Fatalf("exit status %d\n%s", res.code, res.stderr)
	}
	info, err := os.Stat(filepath.Join(dir, "config.json"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("config.json: %v, mode %v", err, info)
	}
	if !strings.Contains(res.stderr, "Created") || !strings.Contains(res.stderr, "ANTHROPIC_API_KEY") {
		t.Errorf("first start did not explain itself:\n%s", res.stderr)
	}
	if !strings.Contains(res.stdout, "error: ") || !strings.Contains(res.stdout, "ANTHROPIC_API_KEY") {
		t.Errorf("the message did not get the key explanation:\n%s", res.stdout)
	}
	check := w.mom("", "check", dir)
	if check.code != 0 || !strings.Contains(check.stdout, "terminal") {
		t.Errorf("mom check on the new config: exit %d\n%s%s", check.code, check.stdout, check.stderr)
	}
}

// TestVersion prints something.
func TestVersion(t *testing.T) {
	w := newWorld(t)
	if res := w.mom("", "version"); res.code != 0 || !strings.HasPrefix(res.stdout, "mom ") {
		t.Errorf("mom version: %d %q", res.code, res.stdout)
	}
}

// TestUsageErrorsNameFlagsAsTheUsageDoes: a wrong flag is named with the dashes the usage
// shows it with, exits 2 and prints the usage.
func TestUsageErrorsNameFlagsAsTheUsageDoes(t *testing.T) {
	w := newWorld(t)
	cases := map[string][]string{
		"flag needs an argument: --next":          {"events", w.dir, "--next"},
		"flag provided but not defined: --nxt":    {"events", w.dir, "--nxt", "3"},
		`invalid value "x" for flag --next`:       {"events", w.dir, "-next", "x"},
		"flag needs an argument: -m":              {"run", w.dir, "-m"},
		"flag provided but not defined: --sandbx": {w.dir, "--sandbx", "host"},
	}
	for want, args := range cases {
		if res := w.mom("", args...); res.code != 2 || !strings.Contains(res.stderr, "mom: usage: "+want) || !strings.Contains(res.stderr, "Usage:") {
			t.Errorf("mom %q: exit %d, stderr:\n%s\nwant exit 2 and %q", args, res.code, res.stderr, want)
		}
	}
}

// TestHugeAndMultiLineInput: a multi-line one-shot prompt is one message (its further lines
// quoted after "| ", as every message's are); a line over the 1 MB limit in the terminal is
// cut with a notice, and the terminal keeps listening.
func TestHugeAndMultiLineInput(t *testing.T) {
	w := newWorld(t, withBusy("queue")) // both lines arrive at once; each gets its run

	w.llm.Enqueue(fakellm.Text("one message"))
	w.ask("first line\nsecond line")
	if got := w.llm.Requests()[0].LastUserText(); !strings.HasSuffix(got, "[ada]: first line\n| second line") {
		t.Errorf("multi-line prompt reached the model as %q", got)
	}

	w.llm.Enqueue(fakellm.Text("got the big one"), fakellm.Text("and the next"))
	res := w.mom(strings.Repeat("y", 2<<20)+"\nnext\n", w.dir)
	if res.code != 0 || !strings.Contains(res.stdout, "longer than 1 MB") || !strings.Contains(res.stdout, "and the next") {
		t.Fatalf("exit %d\nstdout:\n%.2000s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	reqs := w.llm.Requests()
	if n := len(reqs[1].LastUserText()); n < 1<<20 || n > 1<<20+100 {
		t.Errorf("the cut message has %d bytes, want about 1 MB", n)
	}
}
