package config

import (
	"reflect"
	"strings"
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
			want: `config.json: unknown key "modle"; did you mean "model"? (known keys: model, sandbox, retry, compaction, customTools, maxConcurrentRuns, health, adapters)`,
		},
		{
			name: "unknown top-level key without a near miss",
			in:   `{"plugins": []}`,
			want: `config.json: unknown key "plugins" (known keys: model, sandbox, retry, compaction, customTools, maxConcurrentRuns, health, adapters)`,
		},
		{
			name: "unknown adapter key",
			in:   `{"adapters": {"terminal": {"type": "cli", "bussy": "queue"}}}`,
			want: `config.json: adapters.terminal: unknown key "bussy"; did you mean "busy"? (known keys: type, busy, admins, dm)`,
		},
		{
			name: "unknown model key in another case",
			in:   `{"model": {"baseURL": "http://x"}}`,
			want: `config.json: model: unknown key "baseURL"; did you mean "baseUrl"? (known keys: provider, id, apiKey, baseUrl, thinking, maxTokens, contextWindow)`,
		},
		{
			name: "missing type",
			in:   `{"adapters": {"terminal": {"busy": "queue"}}}`,
			want: `config.json: adapters.terminal: missing "type" (one of: ` + strings.Join(adapterTypeNames(), ", ") + `)`,
		},
		{
			name: "unknown type",
			in:   `{"adapters": {"acme": {"type": "slak"}}}`,
			want: `config.json: adapters.acme.type: unknown adapter type "slak"; did you mean "slack"? (known types: ` + strings.Join(adapterTypeNames(), ", ") + `)`,
		},
		{
			name: "near-miss type",
			in:   `{"adapters": {"t": {"type": "clj"}}}`,
			want: `config.json: adapters.t.type: unknown adapter type "clj"; did you mean "cli"? (known types: ` + strings.Join(adapterTypeNames(), ", ") + `)`,
		},
		{
			name: "adapter not an object",
			in:   `{"adapters": {"t": "cli"}}`,
			want: `config.json: adapters.t: expected an object ({...}), got a string`,
		},
		{
			name: "bad dm value",
			in:   `{"adapters": {"t": {"type": "cli", "dm": "all"}}}`,
			want: `config.json: adapters.t.dm: "all" is not valid (use "everyone", "none" or a list of user ids like ["local"])`,
		},
		{
			name: "bad dm value, with the platform's kind of user id",
			in:   `{"adapters": {"t": {"type": "telegram", "botToken": "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11", "dm": "all"}}}`,
			want: `config.json: adapters.t.dm: "all" is not valid (use "everyone", "none" or a list of user ids like ["123456789"])`,
		},
		{
			name: "dm of the wrong type",
			in:   `{"adapters": {"t": {"type": "cli", "dm": true}}}`,
			want: `config.json: adapters.t.dm: expected "everyone", "none" or a list of user ids, got true/false`,
		},
		{
			name: "dm list with a number",
			in:   `{"adapters": {"t": {"type": "cli", "dm": ["U1", 2]}}}`,
			want: `config.json: adapters.t.dm[1]: expected a string, got a number`,
		},
		{
			name: "bad busy value",
			in:   `{"adapters": {"t": {"type": "cli", "busy": "wait"}}}`,
			want: `config.json: adapters.t.busy: "wait" is not a valid busy policy (use one of: reject, queue, steer)`,
		},
		{
			name: "admins not a list",
			in:   `{"adapters": {"t": {"type": "cli", "admins": "U1"}}}`,
			want: `config.json: adapters.t.admins: expected a list of strings ([...]), got a string`,
		},
		{
			name: "empty admin id",
			in:   `{"adapters": {"t": {"type": "cli", "admins": [""]}}}`,
			want: `config.json: adapters.t.admins[0]: empty string`,
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
			name: "unset env var in a list",
			in:   `{"adapters": {"t": {"type": "cli", "admins": ["${ADMIN_ID}"]}}}`,
			want: `config.json: adapters.t.admins[0]: environment variable ADMIN_ID is not set`,
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
			name: "bad adapter name",
			in:   `{"adapters": {"my bot": {"type": "cli"}}}`,
			want: `config.json: adapters["my bot"]: adapter names may use only letters, digits, "-" and "_" (1 to 64 characters), because they name directories`,
		},
		{
			name: "adapter name with a slash",
			in:   `{"adapters": {"../etc": {"type": "cli"}}}`,
			want: `config.json: adapters["../etc"]: adapter names may use only letters, digits, "-" and "_" (1 to 64 characters), because they name directories`,
		},
		{
			name: "adapter name too long",
			in:   `{"adapters": {"` + strings.Repeat("a", 65) + `": {"type": "cli"}}}`,
			want: `config.json: adapters.` + strings.Repeat("a", 65) + `: adapter names may use only letters, digits, "-" and "_" (1 to 64 characters), because they name directories`,
		},
		{
			name: "duplicate key",
			in:   `{"model": {"id": "a", "id": "b"}}`,
			want: `config.json: model: key "id" appears more than once`,
		},
		{
			name: "several problems are all reported",
			in:   `{"model": {"thinking": "max"}, "adapters": {"t": {"type": "cli", "busy": "no"}}}`,
			want: `config.json: model.thinking: "max" is not a valid thinking level (use one of: off, low, medium, high)` + "\n" +
				`config.json: adapters.t.busy: "no" is not a valid busy policy (use one of: reject, queue, steer)`,
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

func TestParseAcceptsCommentsAndTrailingCommas(t *testing.T) {
	in := `
// top comment
{
  /* block */ "model": {"id": "m", "thinking": "high",}, // trailing comma
  "adapters": {
    "terminal": {"type": "cli", "admins": ["a", "b",],},
  },
}`
	c, err := Parse([]byte(in), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.ID != "m" || c.Model.Thinking != ThinkingHigh {
		t.Errorf("model = %+v", c.Model)
	}
	a, ok := c.Adapter("terminal")
	if !ok || strings.Join(a.Admins, ",") != "a,b" {
		t.Errorf("adapter = %+v, %v", a, ok)
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

func TestParseDefaults(t *testing.T) {
	c, err := Parse([]byte(`{"adapters": {"b": {"type": "cli"}, "a": {"type": "cli", "busy": "steer"}}}`), "x.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "x.json" {
		t.Errorf("Path = %q", c.Path)
	}
	if c.Model.Thinking != ThinkingOff {
		t.Errorf("thinking = %q", c.Model.Thinking)
	}
	if !reflect.DeepEqual(c.Sandbox, Sandbox{}) {
		t.Errorf("sandbox = %+v, want it left open for Choose", c.Sandbox)
	}
	if c.Retry != (Retry{MaxRetries: 3, BaseDelay: 2 * time.Second, MaxDelay: 60 * time.Second}) {
		t.Errorf("retry = %+v", c.Retry)
	}
	if len(c.Adapters) != 2 || c.Adapters[0].Name != "a" || c.Adapters[1].Name != "b" {
		t.Fatalf("adapters not sorted: %+v", c.Adapters)
	}
	a, b := c.Adapters[0], c.Adapters[1]
	if a.Busy != BusySteer || b.Busy != BusyReject {
		t.Errorf("busy = %q, %q", a.Busy, b.Busy)
	}
	if !b.DM.Everyone || b.CLI == nil || b.Type != "cli" {
		t.Errorf("cli adapter = %+v", b)
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

func TestDMPolicy(t *testing.T) {
	in := `{"adapters": {
	  "a": {"type": "cli", "dm": "none", "admins": ["boss"]},
	  "b": {"type": "cli", "dm": ["u1", "u2"]},
	  "c": {"type": "cli", "dm": "everyone"},
	  "d": {"type": "cli", "dm": []},
	}}`
	c, err := Parse([]byte(in), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) *Adapter {
		a, ok := c.Adapter(name)
		if !ok {
			t.Fatalf("no adapter %q", name)
		}
		return a
	}
	tests := []struct {
		adapter, user string
		want          bool
	}{
		{"a", "boss", true},
		{"a", "u1", false},
		{"a", "", false},
		{"b", "u1", true},
		{"b", "u3", false},
		{"b", "", false},
		{"c", "anyone", true},
		{"d", "u1", false},
	}
	for _, tt := range tests {
		a := get(tt.adapter)
		if got := a.DM.Allows(tt.user, a.Admins); got != tt.want {
			t.Errorf("%s: Allows(%q) = %v, want %v", tt.adapter, tt.user, got, tt.want)
		}
	}
	for name, want := range map[string]string{"a": "none", "b": "u1, u2", "c": "everyone", "d": "none"} {
		if got := get(name).DM.String(); got != want {
			t.Errorf("%s: String() = %q, want %q", name, got, want)
		}
	}
}

func TestAdapterKindsAreConsistent(t *testing.T) {
	for name, k := range adapterKinds {
		if k.decode == nil {
			t.Errorf("%s: no decode function", name)
		}
		for _, key := range k.keys {
			for _, common := range commonAdapterKeys {
				if key == common {
					t.Errorf("%s: key %q shadows a common key", name, key)
				}
			}
		}
	}
}
