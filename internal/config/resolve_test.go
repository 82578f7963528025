package config

import (
	"strings"
	"testing"
)

func TestResolve(t *testing.T) {
	tests := []struct {
		name     string
		model    string // the "model" section
		env      map[string]string
		provider string
		id       string
		key      string
		keyFrom  string
		err      string
	}{
		{name: "nothing set", model: `{}`,
			provider: "anthropic", id: "claude-sonnet-4-5"},
		{name: "anthropic key in env", model: `{}`, env: map[string]string{"ANTHROPIC_API_KEY": "a"},
			provider: "anthropic", id: "claude-sonnet-4-5", key: "a", keyFrom: "ANTHROPIC_API_KEY"},
		{name: "openai key in env", model: `{}`, env: map[string]string{"OPENAI_API_KEY": "o"},
			provider: "openai", id: "gpt-4.1", key: "o", keyFrom: "OPENAI_API_KEY"},
		{name: "both keys prefer anthropic", model: `{}`, env: map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"},
			provider: "anthropic", id: "claude-sonnet-4-5", key: "a", keyFrom: "ANTHROPIC_API_KEY"},
		{name: "empty env var counts as unset", model: `{}`, env: map[string]string{"ANTHROPIC_API_KEY": "", "OPENAI_API_KEY": "o"},
			provider: "openai", id: "gpt-4.1", key: "o", keyFrom: "OPENAI_API_KEY"},
		{name: "base URL means openai", model: `{"baseUrl": "http://127.0.0.1:11434/v1", "id": "llama3.1:8b"}`,
			provider: "openai", id: "llama3.1:8b"},
		{name: "base URL without id", model: `{"baseUrl": "http://127.0.0.1:11434/v1"}`,
			err: `config.json: model.id: name the model to use on http://127.0.0.1:11434/v1, e.g. "id": "llama3.1:8b" (or pass --model openai/<id> for the default)`},
		{name: "anthropic base URL keeps the default id", model: `{"provider": "anthropic", "baseUrl": "http://127.0.0.1:9/"}`,
			provider: "anthropic", id: "claude-sonnet-4-5"},
		{name: "explicit provider ignores the other key", model: `{"provider": "openai"}`, env: map[string]string{"ANTHROPIC_API_KEY": "a"},
			provider: "openai", id: "gpt-4.1"},
		{name: "key in the file wins", model: `{"apiKey": "file"}`, env: map[string]string{"ANTHROPIC_API_KEY": "a"},
			provider: "anthropic", id: "claude-sonnet-4-5", key: "file", keyFrom: keyFromFile},
		{name: "explicit id", model: `{"provider": "anthropic", "id": "claude-opus-4-1"}`,
			provider: "anthropic", id: "claude-opus-4-1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(`{"model": `+tt.model+`}`), "config.json", noEnv)
			if err != nil {
				t.Fatal(err)
			}
			err = c.Resolve(env(tt.env))
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			m := c.Model
			if m.Provider != tt.provider || m.ID != tt.id || m.APIKey != tt.key || m.keyFrom != tt.keyFrom {
				t.Errorf("got %s/%s key %q from %q; want %s/%s key %q from %q",
					m.Provider, m.ID, m.APIKey, m.keyFrom, tt.provider, tt.id, tt.key, tt.keyFrom)
			}
			// Resolving twice changes nothing.
			before := c.Model
			if err := c.Resolve(env(tt.env)); err != nil || c.Model != before {
				t.Errorf("second Resolve changed %+v to %+v (%v)", before, c.Model, err)
			}
		})
	}
}

func TestMissingKeyHint(t *testing.T) {
	resolved := func(model string, vars map[string]string) *Config {
		t.Helper()
		c, err := Parse([]byte(`{"model": `+model+`}`), "/data/config.json", noEnv)
		if err != nil {
			t.Fatal(err)
		}
		if err := c.Resolve(env(vars)); err != nil {
			t.Fatal(err)
		}
		return c
	}
	if h := resolved(`{}`, map[string]string{"ANTHROPIC_API_KEY": "a"}).MissingKeyHint(); h != "" {
		t.Errorf("key set, hint = %q", h)
	}
	if h := resolved(`{"apiKey": "k"}`, nil).MissingKeyHint(); h != "" {
		t.Errorf("key in file, hint = %q", h)
	}
	if h := resolved(`{"baseUrl": "http://127.0.0.1:11434/v1", "id": "q"}`, nil).MissingKeyHint(); h != "" {
		t.Errorf("base URL, hint = %q", h)
	}

	want := `mom has no API key for anthropic (model claude-sonnet-4-5).

Export it in the shell that starts mom:

    export ANTHROPIC_API_KEY=sk-ant-...

or set "apiKey" in the "model" section of /data/config.json.

To use a local model instead, run an OpenAI-compatible server (Ollama, vLLM, llama.cpp)
and point mom at it in /data/config.json:

    "model": {"provider": "openai", "baseUrl": "http://127.0.0.1:11434/v1", "id": "llama3.1:8b"}
`
	if h := resolved(`{}`, nil).MissingKeyHint(); h != want {
		t.Errorf("hint:\n%s\nwant:\n%s", h, want)
	}
	h := resolved(`{"provider": "openai"}`, map[string]string{"ANTHROPIC_API_KEY": "a"}).MissingKeyHint()
	if !strings.Contains(h, "export OPENAI_API_KEY=sk-...") || !strings.Contains(h, "openai (model gpt-4.1)") {
		t.Errorf("openai hint:\n%s", h)
	}
}

func TestRefusedKeyHint(t *testing.T) {
	env := func(vars map[string]string) func(string) (string, bool) {
		return func(k string) (string, bool) { v, ok := vars[k]; return v, ok }
	}
	cases := []struct {
		config string
		vars   map[string]string
		want   string
	}{
		{`{"model": {"apiKey": "k"}}`, nil, `the key is "apiKey" in the "model" section of `},
		{`{"model": {"provider": "openai"}}`, map[string]string{"OPENAI_API_KEY": "k"}, "the key comes from the environment variable OPENAI_API_KEY"},
		{`{"model": {"provider": "openai", "baseUrl": "http://127.0.0.1:11434/v1", "id": "llama3.1:8b"}}`, nil, "mom sent no key; if the server at http://127.0.0.1:11434/v1 needs one"},
	}
	for _, c := range cases {
		cfg, err := Parse([]byte(c.config), "config.json", env(c.vars))
		if err != nil {
			t.Fatal(err)
		}
		if err := cfg.Resolve(env(c.vars)); err != nil {
			t.Fatal(err)
		}
		if got := cfg.RefusedKeyHint(); !strings.Contains(got, c.want) {
			t.Errorf("%s: RefusedKeyHint() = %q; want it to contain %q", c.config, got, c.want)
		}
	}
}
