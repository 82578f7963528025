package adapter

import (
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/adapter/cli"
	"github.com/mom-agent/mom/internal/config"
)

// These tests read config.json's "adapters" with the platforms built into mom, as mom does:
// the keys every adapter has, the checks across adapters, and what mom check says of them.
// Each platform's own keys are tested in its package.

// env returns a lookup over a fixed map, so tests never read the process environment.
func env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

var noEnv = env(nil)

// parse reads config data with every built-in platform.
func parse(data []byte, name string, getenv func(string) (string, bool)) (*config.Config, error) {
	return config.Parse(data, name, getenv, Builtin().Config()...)
}

// kinds are the built-in platforms' kinds, sorted, as config's messages list them.
func kinds() []string {
	var out []string
	for _, s := range Builtin().Specs() {
		out = append(out, string(s.Kind()))
	}
	slices.Sort(out)
	return out
}

func TestParseAdapterErrors(t *testing.T) {
	tests := []struct {
		name, in string
		env      map[string]string
		want     string
	}{
		{
			name: "unknown adapter key",
			in:   `{"adapters": {"terminal": {"type": "cli", "bussy": "queue"}}}`,
			want: `config.json: adapters.terminal: unknown key "bussy"; did you mean "busy"? (known keys: type, busy, admins, dm, approvals, model, limits)`,
		},
		{
			name: "missing type",
			in:   `{"adapters": {"terminal": {"busy": "queue"}}}`,
			want: `config.json: adapters.terminal: missing "type" (one of: ` + strings.Join(kinds(), ", ") + `)`,
		},
		{
			name: "unknown type",
			in:   `{"adapters": {"acme": {"type": "slak"}}}`,
			want: `config.json: adapters.acme.type: unknown adapter type "slak"; did you mean "slack"? (known types: ` + strings.Join(kinds(), ", ") + `)`,
		},
		{
			name: "near-miss type",
			in:   `{"adapters": {"t": {"type": "clj"}}}`,
			want: `config.json: adapters.t.type: unknown adapter type "clj"; did you mean "cli"? (known types: ` + strings.Join(kinds(), ", ") + `)`,
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
			name: "unset env var in a list",
			in:   `{"adapters": {"t": {"type": "cli", "admins": ["${ADMIN_ID}"]}}}`,
			want: `config.json: adapters.t.admins[0]: environment variable ADMIN_ID is not set`,
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
			name: "several problems are all reported",
			in:   `{"model": {"thinking": "max"}, "adapters": {"t": {"type": "cli", "busy": "no"}}}`,
			want: `config.json: model.thinking: "max" is not a valid thinking level (use one of: off, low, medium, high)` + "\n" +
				`config.json: adapters.t.busy: "no" is not a valid busy policy (use one of: reject, queue, steer)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := parse([]byte(tt.in), "config.json", env(tt.env))
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
	c, err := parse([]byte(in), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.ID != "m" || c.Model.Thinking != config.ThinkingHigh {
		t.Errorf("model = %+v", c.Model)
	}
	a, ok := c.AdapterEntry("terminal")
	if !ok || strings.Join(a.Admins, ",") != "a,b" {
		t.Errorf("adapter = %+v, %v", a, ok)
	}
}

func TestParseDefaults(t *testing.T) {
	c, err := parse([]byte(`{"adapters": {"b": {"type": "cli"}, "a": {"type": "cli", "busy": "steer"}}}`), "x.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != "x.json" {
		t.Errorf("Path = %q", c.Path)
	}
	if c.Model.Thinking != config.ThinkingOff {
		t.Errorf("thinking = %q", c.Model.Thinking)
	}
	if !reflect.DeepEqual(c.Sandbox, config.Sandbox{}) {
		t.Errorf("sandbox = %+v, want it left open for Choose", c.Sandbox)
	}
	if c.Retry != (config.Retry{MaxRetries: 3, BaseDelay: 2 * time.Second, MaxDelay: 60 * time.Second}) {
		t.Errorf("retry = %+v", c.Retry)
	}
	if len(c.Adapters) != 2 || c.Adapters[0].Name != "a" || c.Adapters[1].Name != "b" {
		t.Fatalf("adapters not sorted: %+v", c.Adapters)
	}
	a, b := c.Adapters[0], c.Adapters[1]
	if a.Busy != config.BusySteer || b.Busy != config.BusyReject {
		t.Errorf("busy = %q, %q", a.Busy, b.Busy)
	}
	if _, ok := b.Options.(*cli.Config); !b.DM.Everyone || !ok || b.Type != "cli" {
		t.Errorf("cli adapter = %+v", b)
	}
}

func TestDMPolicy(t *testing.T) {
	in := `{"adapters": {
	  "a": {"type": "cli", "dm": "none", "admins": ["boss"]},
	  "b": {"type": "cli", "dm": ["u1", "u2"]},
	  "c": {"type": "cli", "dm": "everyone"},
	  "d": {"type": "cli", "dm": []},
	}}`
	c, err := parse([]byte(in), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	get := func(name string) *config.AdapterEntry {
		a, ok := c.AdapterEntry(name)
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

func TestExpandInConfig(t *testing.T) {
	in := `{
	  "model": {"apiKey": "${KEY}", "baseUrl": "http://${HOST:-127.0.0.1}:11434/v1", "id": "cost$$"},
	  "adapters": {"t": {"type": "cli", "admins": ["${ADMIN}"], "dm": ["${FRIEND:-u9}"]}},
	}`
	c, err := parse([]byte(in), "config.json", env(map[string]string{"KEY": "k", "ADMIN": "u1"}))
	if err != nil {
		t.Fatal(err)
	}
	if c.Model.APIKey != "k" || c.Model.BaseURL != "http://127.0.0.1:11434/v1" || c.Model.ID != "cost$" {
		t.Errorf("model = %+v", c.Model)
	}
	a := c.Adapters[0]
	if a.Admins[0] != "u1" || a.DM.Users[0] != "u9" {
		t.Errorf("adapter = %+v", a)
	}
}

func TestCheckServe(t *testing.T) {
	cases := map[string]string{
		`{"adapters": {}}`: `config.json has no adapters: add one under "adapters"`,
		`{"adapters": {"a": {"type": "cli"}, "b": {"type": "cli"}}}`: `config.json: adapters a and b are both terminals; only one can read the keyboard`,
		`{"adapters": {"a": {"type": "cli"}, "w": {"type": "web"}}}`: ``,
	}
	for in, want := range cases {
		c, err := parse([]byte(in), "config.json", noEnv)
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		err = c.CheckServe()
		if want == "" && err != nil || want != "" && (err == nil || !strings.HasPrefix(err.Error(), want)) {
			t.Errorf("%s: CheckServe() = %v; want %q", in, err, want)
		}
	}
}

func TestSummary(t *testing.T) {
	in := `{
	  "model": {"provider": "openai", "id": "qwen3", "baseUrl": "http://user:hunter2@127.0.0.1:8000/v1?key=s3cret", "apiKey": "${KEY}"},
	  "sandbox": {"type": "docker", "container": "box"},
	  "maxConcurrentRuns": 8,
	  "adapters": {"terminal": {"type": "cli", "admins": ["me"], "dm": ["u1"], "busy": "queue"}},
	}`
	c, err := parse([]byte(in), "data/config.json", env(map[string]string{"KEY": "sk-very-secret"}))
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
approval: not asked while commands run in the docker sandbox (mode ask-host)
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
