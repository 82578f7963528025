package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/store"
)

// Text from others (a model that read a hostile web page, a command's output, a file name a
// command chose, a message someone sent) can hold escape sequences a terminal obeys: clear
// the screen, set the title, hide text, reorder it with a bidi override. Everything mom
// prints on a terminal shows them as visible escapes instead (package visible).

// hostileText is text that would rewrite a terminal printed raw: OSC (set the title), CSI
// (clear the screen), a C1 CSI, a carriage return that overwrites the line, and a right-to-left
// override; the markdown must survive as written.
const hostileText = "**bold** \x1b]0;pwned\x07 \x1b[2J \u009b31m safe\rforged \u202etxt.exe"

// hostileShown is hostileText as mom prints it.
const hostileShown = `**bold** \x1b]0;pwned\x07 \x1b[2J \u009b31m safe\rforged \u202etxt.exe`

// noRawControls fails the test when out holds a character a terminal would obey, other than
// newlines (and tabs).
func noRawControls(t *testing.T, what, out string) {
	t.Helper()
	for i, r := range out {
		if (r < 0x20 && r != '\n' && r != '\t') || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == 0x202e || r == 0x2066 {
			t.Errorf("%s printed %U raw at byte %d:\n%q", what, r, i, out)
			return
		}
	}
}

// TestTerminalShowsControlsAsEscapes: in the terminal chat, the model's answer (markdown as
// written), a tool's label and failing output, and the name of an event file that starts a
// run show terminal controls as escapes; so does `mom run`, on stdout and stderr.
func TestTerminalShowsControlsAsEscapes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.llm.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Look \x1b[8mhidden", "command": `printf 'out \033]0;pwned\007 put'; exit 3`})),
		fakellm.Text(hostileText),
		fakellm.Text("event done"),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Again \x1b[8mhidden", "command": `printf 'err \033[2J'; exit 3`})),
		fakellm.Text(hostileText),
	)
	p := w.start()
	p.waitForErr("mom is running")
	p.send("show me")
	p.waitFor(`forged \u202etxt.exe`)
	for _, want := range []string{`→ Look \x1b[8mhidden`, `✗ out \x1b]0;pwned\x07 put`, hostileShown} {
		if !strings.Contains(p.out.String(), want) {
			t.Errorf("the terminal lacks %q:\n%s", want, p.out)
		}
	}

	w.writeEvent("ping\x1b[8m.json", `{"type": "immediate", "channelId": "local", "text": "ping"}`)
	p.waitFor("event done")
	if !strings.Contains(p.out.String(), `(starting event ping\x1b[8m.json)`) {
		t.Errorf("the event's name is not shown escaped:\n%s", p.out)
	}
	p.quit()
	noRawControls(t, "the terminal chat", p.out.String())

	res := w.mom("", "run", w.dir, "-m", "again")
	if !strings.Contains(res.stdout, hostileShown) || !strings.Contains(res.stderr, `→ Again \x1b[8mhidden`) || !strings.Contains(res.stderr, `✗ err \x1b[2J`) {
		t.Errorf("mom run: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	noRawControls(t, "mom run's answer", res.stdout)
	noRawControls(t, "mom run's progress", res.stderr)
}

// TestEventsShowsControlsAsEscapes: `mom events` lists files a command in the sandbox may
// have named and written (a valid event, an invalid one, one set aside with its note) with
// their controls shown as escapes.
func TestEventsShowsControlsAsEscapes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.writeEvent("rem\x1b[8minder.json", `{"type": "one-shot", "channelId": "local", "text": "x", "at": "2031-03-14T15:30:00+01:00"}`)
	w.writeEvent("bad\u202e.json", "\x1b]0;pwned\x07")
	invalid := filepath.Join(w.eventsDir(), ".invalid")
	if err := os.MkdirAll(invalid, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, body := range map[string]string{
		"old\x1b[2J.json":           "{}",
		"old\x1b[2J.json.error.txt": "set aside at noon\n\x1b]0;pwned\x07 because\r\u202eforged",
	} {
		if err := os.WriteFile(filepath.Join(invalid, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := w.mom("", "events", w.dir)
	for _, want := range []string{
		`rem\x1b[8minder.json  one-shot  terminal/local`,
		`bad\u202e.json  INVALID: `,
		`.invalid/old\x1b[2J.json  INVALID (set aside): \x1b]0;pwned\x07 because\r\u202eforged`,
	} {
		if !strings.Contains(res.stdout, want) {
			t.Errorf("mom events lacks %q:\n%s", want, res.stdout)
		}
	}
	noRawControls(t, "mom events", res.stdout)
}

// TestDownloadShowsControlsAsEscapes: `mom download` prints a channel's history (people's
// names and text, which commands in the sandbox could also have written) with controls shown
// as escapes and lines kept, and an error that lists channels a command made names them
// escaped.
func TestDownloadShowsControlsAsEscapes(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	dir := w.channelDir("terminal", "local")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"id": "1", "ts": "2026-01-02T03:04:05Z", "channelId": "local", "sender": {"id": "e", "username": "eve\u001b[8m"},` +
		` "text": "first \u001b]0;pwned\u0007\nsecond \u202etxt.exe\r\u009b2J"}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "log.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	res := w.mom("", "download", w.dir, "terminal/local")
	lines := strings.Split(strings.TrimRight(res.stdout, "\n"), "\n")
	if res.code != 0 || len(lines) != 2 || !strings.HasSuffix(lines[0], `] eve\x1b[8m: first \x1b]0;pwned\x07`) ||
		strings.TrimSpace(lines[1]) != `second \u202etxt.exe\r\u009b2J` {
		t.Errorf("mom download: exit %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	noRawControls(t, "mom download", res.stdout)

	// A command may make a channel directory whose escaped name (see store.PathComponent)
	// spells out controls.
	evil, err := store.PathComponent("x\x1b]0;pwned\x07")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(w.dir, "workspace", "channels", "terminal", evil), 0o755); err != nil {
		t.Fatal(err)
	}
	res = w.mom("", "download", w.dir, "terminal/nope")
	if res.code != 1 || !strings.Contains(res.stderr, `terminal/x\x1b]0;pwned\x07`) {
		t.Errorf("mom download of an unknown channel: exit %d\n%s", res.code, res.stderr)
	}
	noRawControls(t, "mom download's error", res.stderr)
}

// TestTerminalCheckShowsToolFoldersEscaped: `mom check` lists tool folders by name, and
// with what their tool.json says; both are shown with controls as escapes.
func TestTerminalCheckShowsToolFoldersEscaped(t *testing.T) {
	t.Parallel()
	w := toolsWorld(t, `"invoke"`)
	w.addExecTool("x\x1b]0;pwned\x07", `{"name": "typo", "description": "Tool \u001b[2J", "run": "./run.sh", "bad\u202e": 1}`, "echo\n")
	res := w.mom("", "check", w.dir)
	if res.code != 0 || !strings.Contains(res.stdout, `x\x1b]0;pwned\x07: skipped: `) {
		t.Errorf("mom check: exit %d\n%s%s", res.code, res.stdout, res.stderr)
	}
	noRawControls(t, "mom check", res.stdout)
}
