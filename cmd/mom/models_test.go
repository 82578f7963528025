package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestModelChoiceSurvivesARestartAndIsInTheContext: /model switches the terminal's
// conversation to a model named in "models"; after a restart it is still that model; the
// switch is a model_change entry in context.jsonl, as pi writes one; mom check lists the
// models.
func TestModelChoiceSurvivesARestartAndIsInTheContext(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": "test-key", "baseUrl": %q},
  "models": {"local": {"provider": "openai", "baseUrl": %q, "id": "llama3.1:8b", "apiKey": "test-key"}},
  "adapters": {"terminal": {"type": "cli", "busy": "queue"}},
}`, w.llm.URL(), w.llm.OpenAIURL()))
	w.llm.Enqueue(fakellm.Text("from anthropic"), fakellm.Text("from local"), fakellm.Text("still local"))
	p := w.start()
	p.send("hello")
	p.waitFor("from anthropic")
	p.send("/model local")
	p.waitFor("This channel now uses local (openai/llama3.1:8b)")
	p.send("and now?")
	p.waitFor("from local")
	if code := p.quit(); code != 0 {
		t.Fatalf("mom exited %d", code)
	}
	p = w.start()
	p.send("after the restart")
	p.waitFor("still local")
	p.quit()
	reqs := w.llm.Requests()
	if len(reqs) != 3 || reqs[0].Protocol != fakellm.Anthropic || reqs[1].Protocol != fakellm.OpenAI || reqs[2].Protocol != fakellm.OpenAI {
		t.Fatalf("requests: %d, want anthropic then openai twice", len(reqs))
	}
	ctx, err := os.ReadFile(filepath.Join(w.channelDir("terminal", "local"), "context.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(ctx), `"type":"model_change"`); n != 1 || !strings.Contains(string(ctx), `"provider":"openai","modelId":"llama3.1:8b"`) {
		t.Errorf("context.jsonl has %d model changes; want one to openai/llama3.1:8b:\n%s", n, ctx)
	}
	res := w.mom("", "check", w.dir)
	if !strings.Contains(res.stdout, "  local: openai/llama3.1:8b at ") {
		t.Errorf("mom check does not list the model:\n%s", res.stdout)
	}
}
