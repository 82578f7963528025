package config

import (
	"strings"
	"testing"
)

func TestSummary(t *testing.T) {
	in := `{
	  "model": {"provider": "openai", "id": "qwen3", "baseUrl": "http://user:hunter2@127.0.0.1:8000/v1?key=s3cret", "apiKey": "${KEY}"},
	  "sandbox": {"type": "docker", "container": "box"},
	  "maxConcurrentRuns": 8,
	  "adapters": {"terminal": {"type": "cli", "admins": ["me"], "dm": ["u1"], "busy": "queue"}},
	}`
	c, err := Parse([]byte(in), "data/config.json", env(map[string]string{"KEY": "sk-very-secret"}))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Resolve(noEnv); err != nil {
		t.Fatal(err)
	}
	got := c.Summary()
	want := `config:   data/config.json
model:    openai/qwen3, thinking off
key:      apiKey in config
base URL: http://user:xxxxx@127.0.0.1:8000/v1?(hidden)
sandbox:  docker, container "box" (the workspace is /workspace inside it; commands there can rewrite channel history, log.jsonl and context.jsonl, which only mom's file tools refuse to write)
retry:    up to 3 times, waiting 2s doubling to at most 60s
runs:     at most 8 at once across channels
adapters:
  terminal (cli): DMs from u1; admins me; when busy: queue
`
	if got != want {
		t.Errorf("summary:\n%s\nwant:\n%s", got, want)
	}
	for _, secret := range []string{"sk-very-secret", "hunter2", "s3cret"} {
		if strings.Contains(got, secret) {
			t.Errorf("summary leaks %q", secret)
		}
	}
}

func TestSummaryKeySources(t *testing.T) {
	tests := []struct {
		model string
		env   map[string]string
		want  string
	}{
		{`{}`, map[string]string{"ANTHROPIC_API_KEY": "sk-ant-secret"}, "key:      ANTHROPIC_API_KEY (set)\n"},
		{`{}`, nil, "key:      missing: ANTHROPIC_API_KEY is not set\n"},
		{`{"baseUrl": "http://127.0.0.1:1/v1", "id": "m"}`, nil, "key:      none (not needed for a baseUrl server that takes none)\n"},
	}
	for _, tt := range tests {
		c, err := Parse([]byte(`{"model": `+tt.model+`, "retry": {"maxRetries": 0}}`), "config.json", noEnv)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Resolve(env(tt.env)); err != nil {
			t.Fatal(err)
		}
		s := c.Summary()
		if !strings.Contains(s, tt.want) {
			t.Errorf("summary for %s:\n%s\nwant line %q", tt.model, s, tt.want)
		}
		if strings.Contains(s, "sk-ant-secret") {
			t.Errorf("summary leaks the key:\n%s", s)
		}
		if !strings.Contains(s, "retry:    off\n") || !strings.Contains(s, "adapters: none") {
			t.Errorf("summary:\n%s", s)
		}
	}
}
