package main

import (
	"encoding/json"
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// The custom tools tests put tool folders in <data>/tools: an MCP server built from
// testdata/mcpserver with the real SDK, and executables written as shell scripts.

// secrets are in mom's environment in these tests; no tool may see them unless its config
// names them.
var secrets = []string{"ANTHROPIC_API_KEY=sk-ant-secret", "SLACK_BOT_TOKEN=xoxb-secret"}

// toolsWorld is a world whose mom has secrets and two variables tools may be given, and whose
// config sets the custom tools' mode and default time limit.
func toolsWorld(t *testing.T, customTools string) *world {
	t.Helper()
	w := newWorld(t)
	w.env = append(w.env, secrets...)
	w.env = append(w.env, "WEATHER_KEY=wk-123", "MCP_TOKEN=mcp-456")
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": %q},
  "retry": {"maxRetries": 0},
  "customTools": %s,
  "adapters": {"terminal": {"type": "cli"}},
}`, w.llm.URL(), customTools))
	return w
}

func (w *world) toolsDir() string { return filepath.Join(w.dir, "tools") }

// addExecTool writes a tool folder with a tool.json and its script, the manifest last.
func (w *world) addExecTool(folder, manifest, script string) string {
	w.t.Helper()
	dir := filepath.Join(w.toolsDir(), folder)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "run.sh"), []byte("#!/bin/sh\n"+script), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tool.json"), []byte(manifest), 0o644); err != nil {
		w.t.Fatal(err)
	}
	return dir
}

// wordcount counts the words of its JSON input, which for {"text":"a b c"} is the words of
// the text, and notes that it ran and what its environment was.
const wordcountManifest = `{
  "name": "wordcount",
  "description": "Count the words of a text.",
  "parameters": {"type": "object", "properties": {"text": {"type": "string", "description": "The text."}},
                 "required": ["text"], "additionalProperties": false},
  "run": "./run.sh",
  "env": {"WEATHER_KEY": "${WEATHER_KEY}"}
}`

const wordcountScript = `touch "$MOM_TOOL_DIR/ran"
env > "$MOM_TOOL_DIR/env.txt"
n=$(wc -w | tr -d ' ')
printf '{"content": [{"type": "text", "text": "words: %s"}], "details": {"words": %s}}\n' "$n" "$n"
`

// mcpFolder builds the test MCP server and installs it as the folder "testmcp". It returns
// the files the server notes its starts in and is held down by.
func (w *world) mcpFolder() (starts, stayDown string) {
	w.t.Helper()
	bin := filepath.Join(w.t.TempDir(), "mcpserver")
	build := exec.Command("go", "build", "-o", bin, "./testdata/mcpserver")
	if out, err := build.CombinedOutput(); err != nil {
		w.t.Fatalf("building the test MCP server: %v\n%s", err, out)
	}
	dir := filepath.Join(w.toolsDir(), "testmcp")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		w.t.Fatal(err)
	}
	starts, stayDown = filepath.Join(dir, "starts"), filepath.Join(w.t.TempDir(), "stay-down")
	manifest, _ := json.Marshal(map[string]any{
		"command": bin,
		"env":     map[string]string{"MCP_STARTS": starts, "MCP_STAY_DOWN": stayDown, "MCP_TOKEN": "${MCP_TOKEN}"},
	})
	if err := os.WriteFile(filepath.Join(dir, "mcp.json"), manifest, 0o644); err != nil {
		w.t.Fatal(err)
	}
	return starts, stayDown
}

func invoke(id, tool string, args any) fakellm.ToolCall {
	call := map[string]any{"label": "using " + tool, "tool": tool}
	if args != nil {
		call["args"] = args
	}
	return fakellm.ToolCall{ID: id, Name: "invoke_tool", Args: call}
}

// toolResult returns the result of call id in req, failing when there is none.
func toolResult(t *testing.T, req *fakellm.Request, id string) fakellm.Block {
	t.Helper()
	res, ok := req.ToolResult(id)
	if !ok {
		t.Fatalf("the model never got the result of %s", id)
	}
	return res
}

// checkNoSecrets fails when env (KEY=VALUE lines) holds one of mom's secrets.
func checkNoSecrets(t *testing.T, who, env string) {
	t.Helper()
	for _, s := range secrets {
		name, _, _ := strings.Cut(s, "=")
		if strings.Contains(env, name) {
			t.Errorf("%s received %s:\n%s", who, name, env)
		}
	}
}

// TestCustomToolsInvokeMCPAndExecutable: the model calls an MCP server's tool and an
// executable through invoke_tool; the results reach the next request, the prompt lists both,
// and neither process sees mom's secrets, only what its config names.
func TestCustomToolsInvokeMCPAndExecutable(t *testing.T) {
	w := toolsWorld(t, `"invoke"`)
	w.mcpFolder()
	wc := w.addExecTool("wordcount", wordcountManifest, wordcountScript)
	w.llm.Enqueue(
		fakellm.Calls(invoke("toolu_echo", "echo", map[string]any{"text": "hi there"})),
		fakellm.Calls(invoke("toolu_wc", "wordcount", map[string]any{"text": "one two three"})),
		fakellm.Calls(invoke("toolu_env", "environment", nil)),
		fakellm.Text("All counted."),
	)
	res := w.ask("count my words")
	if !strings.Contains(res.stdout, "All counted.") {
		t.Fatalf("answer: %s\n%s", res.stdout, res.stderr)
	}
	reqs := w.llm.Requests()
	if len(reqs) != 4 {
		t.Fatalf("model got %d requests, want 4\n%s", len(reqs), res.stderr)
	}
	first := reqs[0]
	if !slices.Contains(first.Tools, "invoke_tool") || slices.Contains(first.Tools, "echo") {
		t.Errorf("tools offered = %v, want invoke_tool and no custom tool by itself", first.Tools)
	}
	for _, want := range []string{"## Custom tools", "- echo: Send text back.", "  - text (string, required): the text to send back",
		"- wordcount: Count the words of a text.", "- crash:", "- environment:"} {
		if !strings.Contains(first.System, want) {
			t.Errorf("the system prompt lacks %q", want)
		}
	}
	if r := toolResult(t, reqs[1], "toolu_echo"); r.IsError || r.Text != "echo: hi there" {
		t.Errorf("echo result = %+v", r)
	}
	if r := toolResult(t, reqs[2], "toolu_wc"); r.IsError || r.Text != "words: 3" {
		t.Errorf("wordcount result = %+v", r)
	}
	mcpEnv := toolResult(t, reqs[3], "toolu_env")
	checkNoSecrets(t, "the MCP server", mcpEnv.Text)
	if !strings.Contains(mcpEnv.Text, "MCP_TOKEN=mcp-456") || strings.Contains(mcpEnv.Text, "WEATHER_KEY") {
		t.Errorf("the MCP server's environment should have MCP_TOKEN only:\n%s", mcpEnv.Text)
	}
	env, err := os.ReadFile(filepath.Join(wc, "env.txt"))
	if err != nil {
		t.Fatal(err)
	}
	checkNoSecrets(t, "the executable", string(env))
	for _, want := range []string{"WEATHER_KEY=wk-123", "MOM_CHANNEL=run/local", "MOM_TOOL_DIR=" + wc, "MOM_DATA_DIR=" + w.dir} {
		if !strings.Contains(string(env), want+"\n") {
			t.Errorf("the executable's environment lacks %s:\n%s", want, env)
		}
	}
	if strings.Contains(string(env), "MCP_TOKEN") {
		t.Errorf("the executable got the MCP server's variable:\n%s", env)
	}
	// The details of both kinds are kept with the results.
	lines := apptest.JSONLines(t, filepath.Join(w.channelDir("run", "local"), "context.jsonl"))
	var details []string
	for _, l := range lines {
		if m, ok := l["message"].(map[string]any); ok && m["role"] == "toolResult" {
			b, _ := json.Marshal(m["details"])
			details = append(details, string(b))
		}
	}
	if len(details) < 2 || details[0] != `{"details":{"length":8},"tool":"echo"}` || details[1] != `{"details":{"words":3},"tool":"wordcount"}` {
		t.Errorf("tool result details = %v", details)
	}
}

// TestCustomToolArgumentsCheckedBeforeRunning: wrong arguments and unknown tools are errors
// the model reads, and the tool does not run.
func TestCustomToolArgumentsCheckedBeforeRunning(t *testing.T) {
	w := toolsWorld(t, `"invoke"`)
	wc := w.addExecTool("wordcount", wordcountManifest, wordcountScript)
	w.llm.Enqueue(
		fakellm.Calls(
			invoke("toolu_missing", "wordcount", map[string]any{}),
			invoke("toolu_type", "wordcount", map[string]any{"text": 5}),
			invoke("toolu_extra", "wordcount", map[string]any{"text": "a", "lang": "en"}),
			invoke("toolu_unknown", "wordcounter", map[string]any{"text": "a"}),
		),
		fakellm.Text("I will fix that."),
	)
	w.ask("count")
	last := w.llm.Requests()[1]
	for id, want := range map[string]string{
		"toolu_missing": `invalid arguments for wordcount: missing required argument "text"`,
		"toolu_type":    `invalid arguments for wordcount: argument "text" must be a string, not an integer`,
		"toolu_extra":   `invalid arguments for wordcount: unknown argument "lang"; the accepted arguments are text`,
		"toolu_unknown": `there is no custom tool named "wordcounter"; the custom tools are: wordcount`,
	} {
		if r := toolResult(t, last, id); !r.IsError || !strings.Contains(r.Text, want) {
			t.Errorf("%s: result %+v, want an error containing %q", id, r, want)
		}
	}
	if _, err := os.Stat(filepath.Join(wc, "ran")); err == nil {
		t.Error("the tool ran although its arguments were rejected")
	}
}

// hangScript starts a child that would run for five minutes and notes its pid.
const hangScript = `sleep 300 &
echo $! > "$MOM_TOOL_DIR/pid.tmp" && mv "$MOM_TOOL_DIR/pid.tmp" "$MOM_TOOL_DIR/pid"
wait
`

func hangManifest(timeout string) string {
	return `{"name": "hang", "description": "Never finishes.", "parameters": {"type": "object"}, "run": "./run.sh"` + timeout + `}`
}

// checkGone fails unless the process noted in dir/pid has ended.
func checkGone(t *testing.T, dir string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "pid"))
	if err != nil {
		t.Fatal(err)
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatal(err)
	}
	// The killed child is reaped by init; wait until it is gone rather than a zombie.
	apptest.Eventually(t, fmt.Sprintf("the tool's child %d to be killed", pid), func() bool {
		return syscall.Kill(pid, 0) != nil
	})
}

// TestCustomToolTimeLimit: a tool that hangs is killed, with what it started, when its time
// limit passes, and the model is told.
func TestCustomToolTimeLimit(t *testing.T) {
	w := toolsWorld(t, `{"timeoutSeconds": 600}`)
	dir := w.addExecTool("hang", hangManifest(`, "timeout": 1`), hangScript)
	w.llm.Enqueue(fakellm.Calls(invoke("toolu_hang", "hang", nil)), fakellm.Text("It hung."))
	w.ask("wait for it")
	r := toolResult(t, w.llm.Requests()[1], "toolu_hang")
	if !r.IsError || !strings.Contains(r.Text, "hang did not finish within 1s and was stopped") {
		t.Errorf("result = %+v", r)
	}
	checkGone(t, dir)
}

// TestCustomToolStopped: stop cancels a running custom tool and kills its processes; the next
// request pairs the call with an aborted result.
func TestCustomToolStopped(t *testing.T) {
	w := toolsWorld(t, `{"mode": "invoke", "timeoutSeconds": 600}`)
	dir := w.addExecTool("hang", hangManifest(""), hangScript)
	w.llm.Enqueue(fakellm.Calls(invoke("toolu_hang", "hang", nil)), fakellm.Text("back again"))
	p := w.start()
	p.send("wait for it")
	apptest.WaitForFile(t, filepath.Join(dir, "pid"))
	p.send("stop")
	p.waitFor("Stopped.")
	checkGone(t, dir)
	p.send("still there?")
	p.waitFor("back again")
	if code := p.quit(); code != 0 {
		t.Fatalf("exit status %d\n%s", code, p.err)
	}
	second := w.llm.Requests()[1]
	if r := toolResult(t, second, "toolu_hang"); !r.IsError || !strings.Contains(strings.ToLower(r.Text), "abort") {
		t.Errorf("result of the stopped call = %+v", r)
	}
}

// TestCustomToolsMCPServerRestarts: a server that crashes is reported to the model, calls
// while it is down are errors saying so, and it is started again.
func TestCustomToolsMCPServerRestarts(t *testing.T) {
	w := toolsWorld(t, `"invoke"`)
	_, stayDown := w.mcpFolder()
	w.llm.Enqueue(
		fakellm.Calls(invoke("toolu_crash", "crash", nil)),
		fakellm.Calls(invoke("toolu_down", "echo", map[string]any{"text": "anyone?"})),
		fakellm.Text("The server is down."),
		fakellm.Calls(invoke("toolu_up", "echo", map[string]any{"text": "back"})),
		fakellm.Text("It is back."),
	)
	p := w.start()
	p.waitForErr("MCP server started")
	p.send("crash it")
	p.waitFor("The server is down.")
	reqs := w.llm.Requests()
	if r := toolResult(t, reqs[1], "toolu_crash"); !r.IsError || !strings.Contains(r.Text, "stopped during the call to crash") {
		t.Errorf("crash result = %+v", r)
	}
	if r := toolResult(t, reqs[2], "toolu_down"); !r.IsError || !strings.Contains(r.Text, "is not running") {
		t.Errorf("result while down = %+v", r)
	}
	p.waitForErr("MCP server stopped; restarting it")
	if err := os.Remove(stayDown); err != nil {
		t.Fatal(err)
	}
	apptest.Eventually(t, "the server to start again", func() bool {
		return strings.Count(p.err.String(), "MCP server started") >= 2
	})
	p.send("try again")
	p.waitFor("It is back.")
	if r := toolResult(t, w.llm.Requests()[4], "toolu_up"); r.IsError || r.Text != "echo: back" {
		t.Errorf("result after the restart = %+v", r)
	}
	if code := p.quit(); code != 0 {
		t.Fatalf("exit status %d\n%s", code, p.err)
	}
}

// TestCustomToolAddedAndRemovedWhileRunning: a tool folder put in place while mom runs is
// callable without a restart, and one taken away is gone.
func TestCustomToolAddedAndRemovedWhileRunning(t *testing.T) {
	w := toolsWorld(t, `"direct"`)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.ToolCall{ID: "toolu_wc", Name: "wordcount", Args: map[string]any{"label": "counting", "text": "a b"}}),
		fakellm.Text("Two words."),
		fakellm.Text("Nothing to count with."),
	)
	p := w.start()
	p.waitForErr("mom is running")
	w.addExecTool("wordcount", wordcountManifest, wordcountScript)
	p.waitForErr("custom tool ready")
	p.send("count a b")
	p.waitFor("Two words.")
	reqs := w.llm.Requests()
	if !slices.Contains(reqs[0].Tools, "wordcount") || slices.Contains(reqs[0].Tools, "invoke_tool") {
		t.Errorf("tools offered in direct mode = %v", reqs[0].Tools)
	}
	if r := toolResult(t, reqs[1], "toolu_wc"); r.IsError || r.Text != "words: 2" {
		t.Errorf("result = %+v", r)
	}
	if err := os.RemoveAll(filepath.Join(w.toolsDir(), "wordcount")); err != nil {
		t.Fatal(err)
	}
	p.waitForErr("custom tool folder removed")
	p.send("count again")
	p.waitFor("Nothing to count with.")
	if last := w.llm.Requests()[2]; slices.Contains(last.Tools, "wordcount") || strings.Contains(last.System, "## Custom tools") {
		t.Errorf("the removed tool is still offered: %v", last.Tools)
	}
	if code := p.quit(); code != 0 {
		t.Fatalf("exit status %d\n%s", code, p.err)
	}
}

// TestCustomToolExamples installs the two examples of examples/tools as the README says and
// has the model call both.
func TestCustomToolExamples(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("the wordcount example needs jq, which is not installed")
	}
	w := toolsWorld(t, `"invoke"`)
	examples := filepath.Join("..", "..", "examples", "tools")
	clock := filepath.Join(w.toolsDir(), "clock-mcp")
	build := exec.Command("go", "build", "-o", filepath.Join(clock, "clock-mcp"), "../../examples/tools/clock-mcp")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building the clock example: %v\n%s", err, out)
	}
	copyFile(t, filepath.Join(examples, "clock-mcp", "mcp.json"), filepath.Join(clock, "mcp.json"))
	for _, name := range []string{"tool.json", "count.sh"} {
		copyFile(t, filepath.Join(examples, "wordcount", name), filepath.Join(w.toolsDir(), "wordcount", name))
	}
	w.llm.Enqueue(
		fakellm.Calls(
			invoke("toolu_clock", "clock", map[string]any{"timezone": "Europe/Vienna"}),
			invoke("toolu_badzone", "clock", map[string]any{"timezone": "Mars/Olympus"}),
			invoke("toolu_wc", "wordcount", map[string]any{"text": "one two\nthree", "unit": "lines"}),
		),
		fakellm.Text("Done."),
	)
	w.ask("what time is it, and how many lines?")
	last := w.llm.Requests()[1]
	if r := toolResult(t, last, "toolu_clock"); r.IsError || !strings.Contains(r.Text, "in Europe/Vienna (") {
		t.Errorf("clock = %+v", r)
	}
	if r := toolResult(t, last, "toolu_badzone"); !r.IsError || !strings.Contains(r.Text, `unknown time zone "Mars/Olympus"`) {
		t.Errorf("clock with a bad zone = %+v", r)
	}
	if r := toolResult(t, last, "toolu_wc"); r.IsError || r.Text != "2 lines" {
		t.Errorf("wordcount = %+v", r)
	}
}

// copyFile copies a file with its permissions, creating directories.
func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
		t.Fatal(err)
	}
}

// TestCustomToolsCheckAgreesWithMom: `mom check` lists as skipped, with the reason the running
// mom logs, a folder whose tool has a built-in tool's name, one whose name an earlier folder
// has, one whose env names an unset variable, and one whose tool.json has a typo (with the key
// it meant); the folder mom loads is listed as a tool.
func TestCustomToolsCheckAgreesWithMom(t *testing.T) {
	w := toolsWorld(t, `"invoke"`)
	w.addExecTool("a-wordcount", wordcountManifest, wordcountScript)
	w.addExecTool("b-bash", `{"name": "bash", "description": "Shadows the built-in.", "run": "./run.sh"}`, "echo no\n")
	w.addExecTool("c-wordcount", strings.Replace(wordcountManifest, "Count the words", "Count them again", 1), wordcountScript)
	w.addExecTool("d-forecast", `{"name": "forecast", "description": "Tomorrow's weather.", "run": "./run.sh", "env": {"KEY": "${FORECAST_KEY}"}}`, "echo sunny\n")
	w.addExecTool("e-typo", `{"name": "typo", "descripton": "Misspelt.", "run": "./run.sh"}`, "echo\n")
	folder := func(name string) string { return filepath.Join(w.toolsDir(), name) }
	fine := "tool wordcount (runs " + filepath.Join(folder("a-wordcount"), "run.sh") + ")"
	refused := map[string]string{ // folder → the tool and why it is refused
		"b-bash":      "tool bash: a built-in tool has its name; rename it",
		"c-wordcount": "tool wordcount: a folder that comes first offers a tool of the same name, and that one is used: " + folder("a-wordcount"),
	}
	broken := map[string]string{ // folder → why it is skipped
		"d-forecast": filepath.Join(folder("d-forecast"), "tool.json") + `: "env".KEY: environment variable FORECAST_KEY is not set`,
		"e-typo": filepath.Join(folder("e-typo"), "tool.json") +
			`: unknown key "descripton"; did you mean "description"? (known keys: name, description, parameters, run, timeout, env)`,
	}

	res := w.mom("", "check", w.dir)
	if res.code != 0 {
		t.Fatalf("mom check exited %d:\n%s%s", res.code, res.stdout, res.stderr)
	}
	want := []string{"  " + folder("a-wordcount") + ": " + fine + "\n"}
	for name, why := range refused {
		want = append(want, "  "+folder(name)+": skipped: "+why+"\n")
	}
	for name, why := range broken {
		want = append(want, "  "+folder(name)+": skipped: "+why+"\n")
	}
	for _, line := range want {
		if !strings.Contains(res.stdout, line) {
			t.Errorf("mom check lacks the line %q:\n%s", line, res.stdout)
		}
	}

	p := w.start()
	p.waitForErr("mom is running")
	p.waitForErr("custom tool ready")
	if code := p.quit(); code != 0 {
		t.Fatalf("exit status %d\n%s", code, p.err)
	}
	log := p.err.String()
	if n := strings.Count(log, "custom tool ready"); n != 1 || !strings.Contains(log, "tool=wordcount folder="+folder("a-wordcount")) {
		t.Errorf("mom made %d tools ready; want wordcount of a-wordcount alone:\n%s", n, log)
	}
	for name, why := range refused {
		tool, reason, _ := strings.Cut(strings.TrimPrefix(why, "tool "), ": ")
		reason, used, _ := strings.Cut(reason, ": ")
		line := `msg="custom tool refused: ` + reason + `" tool=` + tool + " folder=" + folder(name)
		if used != "" {
			line += " used=" + used
		}
		if !strings.Contains(log, line) {
			t.Errorf("mom's log lacks %s:\n%s", line, log)
		}
	}
	for name, why := range broken {
		if line := `msg="custom tool folder skipped" folder=` + folder(name) + " err=" + strconv.Quote(why); !strings.Contains(log, line) {
			t.Errorf("mom's log lacks %s:\n%s", line, log)
		}
	}
}
