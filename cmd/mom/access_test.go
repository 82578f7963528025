package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// accessWorld is a world whose terminal adapter has the given access settings.
func accessWorld(t *testing.T, settings string) *world {
	w := newWorld(t)
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "adapters": {"terminal": {"type": "cli", %s}},
}`, w.llm.URL(), settings))
	return w
}

// TestRefusedDMIsAnsweredOnceAndLogged: someone the dm policy does not allow gets one polite
// refusal; further messages are logged silently and nothing reaches the model.
func TestRefusedDMIsAnsweredOnceAndLogged(t *testing.T) {
	w := accessWorld(t, `"dm": ["someone-else"]`)
	res := w.mom("hello\nhello again\n", w.dir)
	if res.code != 0 {
		t.Fatalf("exit %d\n%s", res.code, res.stderr)
	}
	if n := strings.Count(res.stdout, "I only take direct messages"); n != 1 {
		t.Errorf("refusal shown %d times, want once:\n%s", n, res.stdout)
	}
	if !strings.Contains(res.stdout, "`ada`") {
		t.Errorf("the refusal does not tell the person their id:\n%s", res.stdout)
	}
	if n := len(w.llm.Requests()); n != 0 {
		t.Errorf("a refused DM reached the model (%d requests)", n)
	}
	lines := apptest.JSONLines(t, w.channelDir("terminal", "local")+"/log.jsonl")
	if len(lines) != 2 || lines[0]["text"] != "hello" || lines[1]["text"] != "hello again" {
		t.Errorf("refused messages were not logged: %v", lines)
	}
}

// TestAdminMayAlwaysDM: admins get answers even when DMs are closed to everyone else.
func TestAdminMayAlwaysDM(t *testing.T) {
	w := accessWorld(t, `"dm": "none", "admins": ["ada"]`)
	w.llm.Enqueue(fakellm.Text("hello boss"))
	res := w.mom("hi\n", w.dir)
	if !strings.Contains(res.stdout, "hello boss") || strings.Contains(res.stdout, "I only take") {
		t.Errorf("admin was not answered:\n%s\n%s", res.stdout, res.stderr)
	}
}

// TestStopWithNothingRunning says so.
func TestStopWithNothingRunning(t *testing.T) {
	w := newWorld(t)
	res := w.mom("stop\n", w.dir)
	if !strings.Contains(res.stdout, "Nothing running.") {
		t.Errorf("stdout:\n%s", res.stdout)
	}
	if n := len(w.llm.Requests()); n != 0 {
		t.Errorf("stop reached the model (%d requests)", n)
	}
}
