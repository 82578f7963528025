package main

import (
	"github.com/mom-agent/mom/internal/apptest"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/dockertest"
	fakedocker "github.com/mom-agent/mom/internal/fake/docker"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// Fake secrets in mom's environment: none may reach a command.
var sandboxSecrets = []string{"SLACK_BOT_TOKEN=xoxb-e2e-secret", "OPENAI_API_KEY=sk-e2e-secret", "GITHUB_TOKEN=ghp-e2e-secret"}

// sandboxWorld is a world whose config has the given sandbox section, with fake secrets in
// mom's environment and another channel's history beside the terminal's.
func sandboxWorld(t *testing.T, sandbox string) *world {
	t.Helper()
	w := newWorld(t)
	w.env = append(w.env, sandboxSecrets...)
	w.writeSandboxConfig(sandbox)
	other := w.channelDir("terminal", "other")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, "log.jsonl"), []byte(`{"text":"private-history"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	return w
}

// writeSandboxConfig writes a config with the fake model, the terminal and the given
// sandbox section.
func (w *world) writeSandboxConfig(sandbox string) {
	w.t.Helper()
	w.writeConfig(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": "` + w.llm.URL() + `"},
  "retry": {"maxRetries": 0},
  ` + sandbox + `
  "adapters": {"terminal": {"type": "cli"}},
}`)
}

func needBwrap(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("bwrap"); err != nil {
		t.Skip("bubblewrap is not installed (scripts/test installs it)")
	}
	if err := exec.Command("bwrap", "--unshare-all", "--ro-bind", "/", "/", "true").Run(); err != nil {
		t.Skipf("bubblewrap cannot make namespaces on this machine: %v", err)
	}
}

// bash scripts one model turn of parallel bash calls, one per command, keyed by call id.
func bash(commands map[string]string) fakellm.Reply {
	ids := make([]string, 0, len(commands))
	for id := range commands {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	var calls []fakellm.ToolCall
	for _, id := range ids {
		calls = append(calls, fakellm.ToolCall{ID: id, Name: "bash", Args: map[string]any{"label": id, "command": commands[id]}})
	}
	return fakellm.Calls(calls...)
}

// runResults runs one prompt with `mom run` and returns each tool call's result text, with
// "ERROR: " in front of failed ones.
func (w *world) runResults(t *testing.T, turns ...fakellm.Reply) (map[string]string, result) {
	t.Helper()
	w.llm.Enqueue(append(turns, fakellm.Reply{Text: "done"})...)
	res := w.mom("", "run", w.dir, "-c", "terminal/local", "-m", "go")
	reqs := w.llm.Requests()
	if len(reqs) == 0 {
		t.Fatalf("mom made no model request; exit %d\n%s", res.code, res.stderr)
	}
	out := map[string]string{}
	for _, b := range reqs[len(reqs)-1].ToolResults() {
		text := b.Text
		if b.IsError {
			text = "ERROR: " + text
		}
		out[b.ToolUseID] = text
	}
	return out, res
}

// TestSandboxBwrapChannelIsolation runs commands through the real binary in real bubblewrap:
// under channel isolation another channel's log is not there, under none it is; config.json
// and the tokens in mom's environment never are; the workspace is writable.
func TestSandboxBwrapChannelIsolation(t *testing.T) {
	needBwrap(t)
	w := sandboxWorld(t, `"sandbox": {"type": "bwrap"},`)
	got, res := w.runResults(t, bash(map[string]string{
		"other":   "cat /workspace/channels/terminal/other/log.jsonl",
		"env":     "env",
		"config":  "cat /workspace/../config.json " + filepath.Join(w.dir, "config.json") + "; ls -A /workspace/..",
		"write":   "echo written > out.txt && pwd",
		"history": "echo forged >> ../log.jsonl; echo '{}' >> ../context.jsonl; mv ../log.jsonl ../old.jsonl; cat ../log.jsonl | wc -l",
		"caps":    "grep ^CapEff /proc/self/status",
		"umount":  "umount -l /workspace/channels; ls /workspace/channels/terminal",
	}))
	if res.code != 0 {
		t.Fatalf("mom run exited %d\n%s", res.code, res.stderr)
	}
	if o := got["other"]; !strings.HasPrefix(o, "ERROR: ") || !strings.Contains(o, "No such file") || strings.Contains(o, "private-history") {
		t.Errorf("another channel's log under channel isolation: %q", o)
	}
	for _, secret := range []string{"xoxb-e2e-secret", "sk-e2e-secret", "ghp-e2e-secret", "test-key"} {
		for id, o := range got {
			if strings.Contains(o, secret) {
				t.Errorf("%s reached command %s:\n%s", secret, id, o)
			}
		}
	}
	if o := got["config"]; strings.Contains(o, "config.json") && !strings.Contains(o, "No such file") {
		t.Errorf("config.json is visible: %q", o)
	}
	if o := got["write"]; o != "/workspace/channels/terminal/local/scratch" {
		t.Errorf("write: %q", o)
	}
	if b, _ := os.ReadFile(filepath.Join(w.channelDir("terminal", "local"), "scratch", "out.txt")); string(b) != "written\n" {
		t.Errorf("the file the command wrote holds %q", b)
	}
	local := w.channelDir("terminal", "local")
	for _, name := range []string{"log.jsonl", "context.jsonl"} {
		b, _ := os.ReadFile(filepath.Join(local, name))
		for line := range strings.Lines(string(b)) {
			if line == "forged\n" || line == "{}\n" {
				t.Errorf("a command wrote %s:\n%s", name, b)
			}
		}
	}
	if o := got["history"]; !strings.Contains(o, "Read-only file system") || !strings.Contains(o, "Device or resource busy") {
		t.Errorf("writing the history: %q", o)
	}
	if o := got["caps"]; o != "CapEff:\t0000000000000000" {
		t.Errorf("capabilities in the sandbox: %q", o)
	}
	if o := got["umount"]; !strings.HasSuffix(o, "\nlocal") {
		t.Errorf("after umount the command sees: %q", o)
	}
	if sys := w.llm.Requests()[0].System; !strings.Contains(sys, "bubblewrap sandbox") || !strings.Contains(sys, "you see only this channel's") {
		t.Errorf("the system prompt does not describe the sandbox:\n%s", sys)
	}

	w = sandboxWorld(t, `"sandbox": {"type": "bwrap", "isolation": "none"},`)
	got, _ = w.runResults(t, bash(map[string]string{"other": "cat /workspace/channels/terminal/other/log.jsonl"}))
	if o := got["other"]; !strings.Contains(o, "private-history") {
		t.Errorf("another channel's log under isolation none: %q", o)
	}
}

// TestSandboxBwrapHostileNames: neither a hostile channel id nor a hostile path given to the
// file tools reaches outside the workspace.
func TestSandboxBwrapHostileNames(t *testing.T) {
	needBwrap(t)
	w := sandboxWorld(t, `"sandbox": {"type": "bwrap"},`)
	w.llm.Enqueue(
		bash(map[string]string{"where": "pwd; ls -A /workspace/channels/terminal", "link": "ln -s ../../../../../config.json leak && echo linked"}),
		fakellm.Calls(
			fakellm.ToolCall{ID: "read-up", Name: "read", Args: map[string]any{"label": "r", "path": "../../../../../config.json"}},
			fakellm.ToolCall{ID: "read-link", Name: "read", Args: map[string]any{"label": "r", "path": "leak"}},
			fakellm.ToolCall{ID: "write-up", Name: "write", Args: map[string]any{"label": "w", "path": "/workspace/../config.json", "content": "{}"}},
			fakellm.ToolCall{ID: "attach-link", Name: "attach", Args: map[string]any{"label": "a", "path": "leak"}},
		),
		fakellm.Reply{Text: "done"},
	)
	res := w.mom("", "run", w.dir, "-c", "terminal/../../../evil", "-m", "go")
	if res.code != 0 {
		t.Fatalf("mom run exited %d\n%s", res.code, res.stderr)
	}
	reqs := w.llm.Requests()
	where, _ := reqs[1].ToolResult("where")
	dir, listing, _ := strings.Cut(where.Text, "\n")
	if !strings.HasPrefix(dir, "/workspace/channels/terminal/") || strings.Count(dir, "/") != 5 || listing != filepath.Base(filepath.Dir(dir)) {
		t.Errorf("the hostile channel runs in %q and sees %q", dir, listing)
	}
	if link, _ := reqs[1].ToolResult("link"); link.Text != "linked" {
		t.Fatalf("link: %+v", link)
	}
	for _, id := range []string{"read-up", "read-link", "write-up", "attach-link"} {
		r, _ := reqs[2].ToolResult(id)
		if !r.IsError || strings.Contains(r.Text, "test-key") {
			t.Errorf("%s: %+v, want a refusal", id, r)
		}
	}
	if b, _ := os.ReadFile(filepath.Join(w.dir, "config.json")); !strings.Contains(string(b), "test-key") {
		t.Errorf("config.json was changed: %s", b)
	}
	if entries, _ := os.ReadDir(filepath.Dir(w.dir)); len(entries) != 1 {
		t.Errorf("something was created beside the data directory: %v", entries)
	}
}

// sleepTree is a command whose children outlive a naive kill: a background sleep, one that
// leaves the process group, and the foreground one. n makes them findable from outside.
func sleepTree(n string) string {
	return "sleep " + n + " & setsid sleep " + n + " & sleep " + n
}

func uniqueSleep() string { return strconv.Itoa(500000 + rand.IntN(400000)) }

// sleeps counts the live `sleep n` processes on this machine.
func sleeps(t *testing.T, n string) int {
	t.Helper()
	entries, err := os.ReadDir("/proc")
	if err != nil {
		t.Skip("no /proc to look for processes in")
	}
	count := 0
	for _, e := range entries {
		cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline")
		if err != nil || string(cmdline) != "sleep\x00"+n+"\x00" {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && i+2 < len(stat) && stat[i+2] != 'Z' {
			count++
		}
	}
	return count
}

// TestSandboxBwrapAbortAndTimeoutKillTree: `stop` and the bash timeout end every process the
// command started, the backgrounded and the escaped ones too.
func TestSandboxBwrapAbortAndTimeoutKillTree(t *testing.T) {
	needBwrap(t)
	assertStopAndTimeoutKillTree(t, sandboxWorld(t, `"sandbox": {"type": "bwrap"},`))
}

// assertStopAndTimeoutKillTree checks that in w's sandbox `stop` and the bash timeout end
// every process the command started, the backgrounded and the escaped ones too.
func assertStopAndTimeoutKillTree(t *testing.T, w *world) {
	t.Helper()
	aborted, timedOut := uniqueSleep(), uniqueSleep()
	w.llm.Enqueue(
		bash(map[string]string{"tree": sleepTree(aborted)}),
		fakellm.Calls(fakellm.ToolCall{ID: "slow", Name: "bash", Args: map[string]any{"label": "slow", "command": sleepTree(timedOut), "timeout": 1}}),
		fakellm.Reply{Text: "done"},
	)
	p := w.start()
	p.send("first")
	apptest.Eventually(t, "the command's three sleeps", func() bool { return sleeps(t, aborted) == 3 })
	p.send("stop")
	apptest.Eventually(t, "the aborted command's processes to die", func() bool { return sleeps(t, aborted) == 0 })
	p.waitForErr("stopReason=aborted") // the run is over, so the next message is not refused as busy

	p.send("second")
	p.waitFor("done")
	apptest.Eventually(t, "the timed-out command's processes to die", func() bool { return sleeps(t, timedOut) == 0 })
	if r, _ := w.llm.Requests()[len(w.llm.Requests())-1].ToolResult("slow"); !strings.Contains(r.Text, "timed out") {
		t.Errorf("slow command result: %+v", r)
	}
	p.quit()
}

// TestSandboxDefault: with no sandbox configured, mom uses bubblewrap where it works, and
// otherwise runs on the host and says so loudly; mom check shows the choice.
func TestSandboxDefault(t *testing.T) {
	needBwrap(t)
	w := sandboxWorld(t, "")
	w.env = slices.DeleteFunc(w.env, func(kv string) bool { return strings.HasPrefix(kv, "MOM_SANDBOX=") })
	res := w.mom("", "check", w.dir)
	if res.code != 0 || !strings.Contains(res.stdout, "sandbox:  bwrap, isolation channel, network on (only the workspace is writable, and of channels/ only the run's own channel, whose history, log.jsonl and context.jsonl, is read-only; other channels are hidden); commands run ") ||
		!strings.Contains(res.stdout, ", with every capability dropped and /proc read-only; chosen because no sandbox is configured and bubblewrap works here") {
		t.Errorf("check with bubblewrap: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	if os.Geteuid() == 0 && !strings.Contains(res.stdout, "commands run as uid 65534 (nobody) in a user namespace of their own") {
		t.Errorf("check as root does not say commands run as nobody:\n%s", res.stdout)
	}

	// A bwrap that cannot make namespaces, first on PATH.
	bin := t.TempDir()
	fake := "#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "bwrap"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	for i, kv := range w.env {
		if strings.HasPrefix(kv, "PATH=") {
			w.env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	res = w.mom("", "check", w.dir)
	if res.code != 0 || !strings.Contains(res.stdout, "sandbox:  host (commands run directly on this machine, as this user, unisolated); no sandbox is configured and bubblewrap cannot be used: bubblewrap does not work here: bwrap: No permissions") {
		t.Errorf("check without bubblewrap: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	got, res := w.runResults(t, bash(map[string]string{"env": "env"}))
	if !strings.Contains(res.stderr, "commands run UNSANDBOXED on this machine as user") {
		t.Errorf("no warning about the host at start-up:\n%s", res.stderr)
	}
	for _, secret := range []string{"xoxb-e2e-secret", "sk-e2e-secret", "ghp-e2e-secret"} {
		if strings.Contains(got["env"], secret) {
			t.Errorf("%s reached a command on the host", secret)
		}
	}

	// Settings only bubblewrap can enforce are refused rather than dropped.
	w.writeConfig(`{"sandbox": {"isolation": "user"}, "adapters": {"terminal": {"type": "cli"}}}`)
	res = w.mom("", "check", w.dir)
	if res.code == 0 || !strings.Contains(res.stderr, `sandbox.isolation: "user" isolation is enforced by bubblewrap`) {
		t.Errorf("isolation without bubblewrap: exit %d\n%s", res.code, res.stderr)
	}
}

// TestSandboxDocker runs the binary with the docker sandbox, against the recording fake
// docker client and against a real engine (scripts/test starts one): commands run in the
// container in the channel's scratch directory, what a command and the write tool write
// appears on the host and is read back on the other side, paths are translated both ways,
// secrets stay out, `stop` and the timeout kill the command inside the container, and a
// missing container is explained with the command that creates it.
func TestSandboxDocker(t *testing.T) {
	for _, backend := range []string{"fake", "engine"} {
		t.Run(backend, func(t *testing.T) {
			w := sandboxWorld(t, "")
			ws := filepath.Join(w.dir, "workspace")
			if err := os.MkdirAll(ws, 0o755); err != nil {
				t.Fatal(err)
			}
			// inside is the workspace as commands see it; the fake runs them on the host.
			container, inside := "box", ws
			var fake *fakedocker.Fake
			if backend == "fake" {
				bin := t.TempDir()
				var err error
				if fake, err = fakedocker.Install(bin, fakedocker.Options{Container: "box", Workspace: ws}); err != nil {
					t.Fatal(err)
				}
				w.env = pathFirst(w.env, bin)
			} else {
				e := dockertest.Require(t)
				container, inside = e.Container(t, ws), "/workspace"
				w.env = e.Environ(t, w.env)
			}
			w.writeSandboxConfig(`"sandbox": {"type": "docker", "container": "` + container + `", "env": ["GITHUB_TOKEN"]},`)
			scratch := filepath.Join(w.channelDir("terminal", "local"), "scratch")

			got, res := w.runResults(t,
				fakellm.Calls(
					fakellm.ToolCall{ID: "env", Name: "bash", Args: map[string]any{"label": "env", "command": "env | sort"}},
					fakellm.ToolCall{ID: "file", Name: "bash", Args: map[string]any{"label": "file", "command": "echo report > r.txt && pwd"}},
					fakellm.ToolCall{ID: "write", Name: "write", Args: map[string]any{"label": "w", "path": "notes/w.txt", "content": "written by the tool"}},
				),
				fakellm.Calls(
					fakellm.ToolCall{ID: "read", Name: "read", Args: map[string]any{"label": "r", "path": "/workspace/channels/terminal/local/scratch/r.txt"}},
					fakellm.ToolCall{ID: "attach", Name: "attach", Args: map[string]any{"label": "a", "path": "r.txt"}},
					fakellm.ToolCall{ID: "cat", Name: "bash", Args: map[string]any{"label": "cat", "command": "cat notes/w.txt"}},
				),
			)
			if res.code != 0 {
				t.Fatalf("mom run exited %d\n%s", res.code, res.stderr)
			}
			env := got["env"]
			if !strings.Contains(env, "GITHUB_TOKEN=ghp-e2e-secret\n") || strings.Contains(env, "xoxb-e2e-secret") || strings.Contains(env, "sk-e2e-secret") {
				t.Errorf("container environment:\n%s", env)
			}
			if want := inside + "/channels/terminal/local/scratch"; got["file"] != want {
				t.Errorf("the command ran in %q, want %q", got["file"], want)
			}
			for file, want := range map[string]string{"r.txt": "report\n", "notes/w.txt": "written by the tool"} {
				if b, err := os.ReadFile(filepath.Join(scratch, file)); err != nil || string(b) != want {
					t.Errorf("on the host, %s holds %q (%v), want %q", file, b, err, want)
				}
			}
			if got["cat"] != "written by the tool" {
				t.Errorf("the command read %q from the file the write tool wrote", got["cat"])
			}
			if r := w.llm.Requests()[2]; !strings.Contains(string(r.Body), "report") {
				t.Errorf("read through the docker sandbox: %s", got["read"])
			}
			if !strings.Contains(res.stderr, "attached file: "+filepath.Join(scratch, "r.txt")) {
				t.Errorf("attach did not translate the path to the host:\n%s", res.stderr)
			}
			if sys := w.llm.Requests()[0].System; !strings.Contains(sys, "Commands start in /workspace/channels/terminal/local/scratch") {
				t.Errorf("system prompt paths are not the container's:\n%s", sys)
			}
			if fake != nil {
				checkDockerExecs(t, fake)
			}

			// stop and the timeout kill the command inside the container, escaped processes too.
			assertStopAndTimeoutKillTree(t, w)
			if fake != nil {
				checkDockerKills(t, fake)
			}

			// Without the container, mom says how to create it.
			w.writeSandboxConfig(`"sandbox": {"type": "docker", "container": "mom-test-missing"},`)
			res = w.mom("", "check", w.dir)
			want := "docker run -d --init --restart unless-stopped --name mom-test-missing -v " + ws + ":/workspace alpine:latest sleep infinity"
			if res.code == 0 || !strings.Contains(res.stderr, want) {
				t.Errorf("check without the container: exit %d, want the command %q\n%s", res.code, want, res.stderr)
			}
		})
	}
}

// checkDockerExecs checks what mom asked of the fake docker client in TestSandboxDocker's
// run: the start-up checks, then execs in the scratch directory that name the variables they
// pass but hold no secret.
func checkDockerExecs(t *testing.T, f *fakedocker.Fake) {
	t.Helper()
	calls, err := f.Calls()
	if err != nil {
		t.Fatal(err)
	}
	if len(calls) < 5 || calls[0][0] != "version" || calls[1][0] != "inspect" {
		t.Fatalf("docker calls %q", calls)
	}
	for _, exec := range calls[2:] {
		wantHead := []string{"exec", "-w", "/workspace/channels/terminal/local/scratch"}
		if !slices.Equal(exec[:3], wantHead) || !slices.Contains(exec, "GITHUB_TOKEN") || slices.Contains(exec, "SLACK_BOT_TOKEN") ||
			!slices.Equal(exec[len(exec)-6:len(exec)-1], []string{"box", "sh", "-c", exec[len(exec)-3], "mom"}) {
			t.Errorf("exec arguments %q", exec)
		}
		for _, a := range exec {
			if strings.Contains(a, "e2e-secret") {
				t.Errorf("a secret is on docker's command line: %q", exec)
			}
		}
	}
}

// checkDockerKills checks that the stopped and the timed-out command were each killed inside
// the container (exec box sh -c <kill script> mom <marker>), the timed-out one last.
func checkDockerKills(t *testing.T, f *fakedocker.Fake) {
	t.Helper()
	calls, err := f.Calls()
	if err != nil {
		t.Fatal(err)
	}
	kills := 0
	for _, c := range calls {
		if len(c) == 7 && c[0] == "exec" && c[1] == "box" && strings.Contains(c[4], "kill -9") {
			kills++
		}
	}
	if last := calls[len(calls)-1]; kills != 2 || last[1] != "box" {
		t.Errorf("%d kills inside the container, want 2, the last call last; calls %q", kills, calls)
	}
}

// pathFirst returns env with dir put first on its PATH.
func pathFirst(env []string, dir string) []string {
	out := slices.Clone(env)
	for i, kv := range out {
		if p, ok := strings.CutPrefix(kv, "PATH="); ok {
			out[i] = "PATH=" + dir + string(os.PathListSeparator) + p
		}
	}
	return out
}

// TestSandboxBwrapUserIsolationSlack: under user isolation, a command run for a person sees
// the channels Slack says they are in (users.conversations) and no others; a scheduled event
// sees only its own channel.
func TestSandboxBwrapUserIsolationSlack(t *testing.T) {
	needBwrap(t)
	const ops, secret = "C0OPS", "G0SECRET"
	sw := newSlackWorld(t, "")
	sw.slack.AddChannel(fakeslack.Channel{ID: ops, Name: "ops", BotMember: true, Members: []string{adaID, slackBot}})
	sw.slack.AddChannel(fakeslack.Channel{ID: secret, Name: "secret", Kind: fakeslack.KindPrivate, BotMember: true, Members: []string{beaID, slackBot}})
	cfg, err := os.ReadFile(filepath.Join(sw.dir, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	sw.writeConfig(strings.Replace(string(cfg), "{", `{"sandbox": {"type": "bwrap", "isolation": "user"},`, 1))
	for _, ch := range []string{general, ops, secret, beaDM} {
		dir := sw.channelDir("acme", ch)
		os.MkdirAll(dir, 0o755)
		os.WriteFile(filepath.Join(dir, "MEMORY.md"), []byte("notes of "+ch+"\n"), 0o644)
	}
	list := "ls /workspace/channels/acme | tr '\\n' ' '"
	sw.llm.Enqueue(bash(map[string]string{"ls": list}), fakellm.Text("ada's done"))
	sw.llm.Enqueue(bash(map[string]string{"ls-event": list}), fakellm.Text("event done"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> what can you see?")
	sw.botSays(general, "", "ada's done")
	reqs := sw.waitRequests(2)
	if r, _ := reqs[1].ToolResult("ls"); r.Text != general+" "+ops+" " {
		t.Errorf("ada's command sees %q, want %s and %s (not bea's private channel or DM)", r.Text, general, ops)
	}

	event := `{"type": "immediate", "channelId": "acme/` + general + `", "text": "check"}`
	if err := os.WriteFile(filepath.Join(sw.dir, "workspace", "events", "check.json"), []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	sw.botSays(general, "", "event done")
	reqs = sw.waitRequests(4)
	if r, _ := reqs[3].ToolResult("ls-event"); r.Text != general+" " {
		t.Errorf("the event's command sees %q, want only %s", r.Text, general)
	}
	sw.stop()
	var asked bool
	for _, c := range sw.slack.Calls("users.conversations") {
		if c.Form.Get("user") == adaID {
			asked = true
		}
	}
	if !asked {
		t.Error("mom never asked Slack which channels ada is in")
	}
}
