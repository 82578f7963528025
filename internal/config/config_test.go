package config

import (
	"reflect"
	"testing"
	"time"
)

// env returns a lookup over a fixed map, so tests never read the process environment.
func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

var noEnv = env(nil)

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name, in string
		env      map[string]string
		want     string
	}{
		{
			name: "invalid JSON with position",
			in:   "{\n  \"adapters\": {\n    \"t\": {\"type\": \"cli\",, }\n  }\n}",
			want: "config.json:3:25: invalid character ',' at start of value\n" +
				"  3 |     \"t\": {\"type\": \"cli\",, }\n" +
				"    |                         ^",
		},
		{
			name: "unclosed object",
			in:   "{\"model\": {\"id\": \"x\"}\n",
			want: "config.json:2:1: parsing object after value: unexpected EOF (the file ends before every { and [ is closed: a } or ] is missing)\n" +
				"  2 | \n" +
				"    | ^",
		},
		{
			name: "bare word",
			in:   `{"model": {"id": gpt}}`,
			want: "config.json:1:18: invalid value gpt (strings need \"double quotes\"; true, false and null are lower case)\n" +
				"  1 | {\"model\": {\"id\": gpt}}\n" +
				"    |                  ^",
		},
		{
			name: "empty file",
			in:   "  \n",
			want: `config.json: the file is empty; it should hold an object such as {"adapters": {"terminal": {"type": "cli"}}}`,
		},
		{
			name: "not an object",
			in:   `[1, 2]`,
			want: `config.json: expected an object ({...}), got a list`,
		},
		{
			name: "unknown top-level key",
			in:   `{"modle": {}}`,
			want: `config.json: unknown key "modle"; did you mean "model"? (known keys: model, models, sandbox, retry, compaction, customTools, maxConcurrentRuns, resume, health, approvals, metrics, transcription, limits, adapters, channels)`,
		},
		{
			name: "unknown top-level key without a near miss",
			in:   `{"plugins": []}`,
			want: `config.json: unknown key "plugins" (known keys: model, models, sandbox, retry, compaction, customTools, maxConcurrentRuns, resume, health, approvals, metrics, transcription, limits, adapters, channels)`,
		},
		{
			name: "unknown model key in another case",
			in:   `{"model": {"baseURL": "http://x"}}`,
			want: `config.json: model: unknown key "baseURL"; did you mean "baseUrl"? (known keys: provider, id, apiKey, baseUrl, thinking, maxTokens, contextWindow)`,
		},
		{
			name: "bad thinking",
			in:   `{"model": {"thinking": "max"}}`,
			want: `config.json: model.thinking: "max" is not a valid thinking level (use one of: off, low, medium, high)`,
		},
		{
			name: "bad provider",
			in:   `{"model": {"provider": "google"}}`,
			want: `config.json: model.provider: "google" is not a valid provider (use one of: anthropic, openai)`,
		},
		{
			name: "wrong type for a number",
			in:   `{"model": {"maxTokens": "4096"}}`,
			want: `config.json: model.maxTokens: expected a number, got a string`,
		},
		{
			name: "fraction",
			in:   `{"model": {"maxTokens": 1.5}}`,
			want: `config.json: model.maxTokens: expected a whole number, got 1.5`,
		},
		{
			name: "negative",
			in:   `{"retry": {"maxRetries": -1}}`,
			want: `config.json: retry.maxRetries: must be at least 0, got -1`,
		},
		{
			name: "delays the wrong way round",
			in:   `{"retry": {"baseDelayMs": 5000, "maxDelayMs": 1000}}`,
			want: `config.json: retry: maxDelayMs (1000) is smaller than baseDelayMs (5000)`,
		},
		{
			name: "wrong type for a string",
			in:   `{"model": {"id": 4}}`,
			want: `config.json: model.id: expected a string, got a number`,
		},
		{
			name: "section of the wrong type",
			in:   `{"sandbox": "docker"}`,
			want: `config.json: sandbox: expected an object ({...}), got a string`,
		},
		{
			name: "bad sandbox type",
			in:   `{"sandbox": {"type": "podman"}}`,
			want: `config.json: sandbox.type: "podman" is not a valid sandbox type (use one of: host, docker, bwrap)`,
		},
		{
			name: "docker without a container",
			in:   `{"sandbox": {"type": "docker"}}`,
			want: `config.json: sandbox: the docker sandbox needs the name of a running container, e.g. "container": "mom-sandbox"`,
		},
		{
			name: "base URL without a scheme",
			in:   `{"model": {"baseUrl": "localhost:11434"}}`,
			want: `config.json: model.baseUrl: "localhost:11434" is not an http(s) URL; write it like "http://127.0.0.1:11434/v1"`,
		},
		{
			name: "unset env var naming the key path",
			in:   `{"model": {"apiKey": "${ANTHROPIC_KEY}"}}`,
			want: `config.json: model.apiKey: environment variable ANTHROPIC_KEY is not set`,
		},
		{
			name: "unclosed reference",
			in:   `{"model": {"apiKey": "${KEY"}}`,
			want: `config.json: model.apiKey: "${KEY" has an unclosed "${"; write "$$" for a literal dollar sign`,
		},
		{
			name: "invalid variable name",
			in:   `{"model": {"apiKey": "${1KEY}"}}`,
			want: `config.json: model.apiKey: "${1KEY}" is not a valid variable reference: names use letters, digits and "_" and do not start with a digit`,
		},
		{
			name: "duplicate key",
			in:   `{"model": {"id": "a", "id": "b"}}`,
			want: `config.json: model: key "id" appears more than once`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.in), "config.json", env(tt.env))
			if err == nil {
				t.Fatalf("Parse succeeded with %+v; want error\n%s", c, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
		})
	}
}

func TestParseNullMeansUnset(t *testing.T) {
	c, err := Parse([]byte(`{"model": {"apiKey": null, "id": null}, "sandbox": null}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.APIKey != "" || c.Model.ID != "" || c.Sandbox.Type != "" {
		t.Errorf("got %+v", c)
	}
}

func TestParseExplicitZeroIsKept(t *testing.T) {
	c, err := Parse([]byte(`{"retry": {"maxRetries": 0, "baseDelayMs": 0, "maxDelayMs": 0}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Retry != (Retry{}) {
		t.Errorf("retry = %+v, want all zero", c.Retry)
	}
}

func TestParseSandboxAndModel(t *testing.T) {
	in := `{
	  "model": {"provider": "openai", "id": "qwen3", "baseUrl": "http://127.0.0.1:8000/v1",
	            "maxTokens": 4096, "contextWindow": 32768, "thinking": "low"},
	  "sandbox": {"type": "docker", "container": "box"},
	  "retry": {"maxRetries": 5, "baseDelayMs": 100, "maxDelayMs": 1000},
	}`
	c, err := Parse([]byte(in), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	want := Model{Provider: "openai", ID: "qwen3", BaseURL: "http://127.0.0.1:8000/v1", Thinking: ThinkingLow,
		MaxTokens: 4096, ContextWindow: 32768, fileProvider: "openai"}
	if c.Model != want {
		t.Errorf("model = %+v\nwant   %+v", c.Model, want)
	}
	if !reflect.DeepEqual(c.Sandbox, Sandbox{Type: SandboxDocker, Container: "box"}) {
		t.Errorf("sandbox = %+v", c.Sandbox)
	}
	if c.Retry != (Retry{MaxRetries: 5, BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second}) {
		t.Errorf("retry = %+v", c.Retry)
	}
}
