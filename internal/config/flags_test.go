package config

import (
	"reflect"
	"testing"
)

func TestApplyModelFlag(t *testing.T) {
	tests := []struct {
		name, file, flag string
		env              map[string]string
		provider, id     string
		key, baseURL     string
		err              string
	}{
		{name: "plain", file: `{}`, flag: "openai/gpt-4.1-mini", env: map[string]string{"OPENAI_API_KEY": "o", "ANTHROPIC_API_KEY": "a"},
			provider: "openai", id: "gpt-4.1-mini", key: "o"},
		{name: "slashes in the id", file: `{}`, flag: "openai/meta-llama/llama-3",
			provider: "openai", id: "meta-llama/llama-3"},
		{name: "same provider keeps base URL and key", file: `{"provider": "openai", "baseUrl": "http://h:1/v1", "apiKey": "f", "id": "x"}`,
			flag: "openai/y", provider: "openai", id: "y", key: "f", baseURL: "http://h:1/v1"},
		{name: "other provider drops the file's base URL and key", file: `{"provider": "openai", "baseUrl": "http://h:1/v1", "apiKey": "f", "id": "x"}`,
			flag: "anthropic/claude-opus-4-1", env: map[string]string{"ANTHROPIC_API_KEY": "a"},
			provider: "anthropic", id: "claude-opus-4-1", key: "a"},
		{name: "file without provider keeps base URL", file: `{"baseUrl": "http://h:1/v1"}`,
			flag: "openai/qwen3", provider: "openai", id: "qwen3", baseURL: "http://h:1/v1"},
		{name: "missing slash", file: `{}`, flag: "gpt-4.1",
			err: `model "gpt-4.1": expected provider/id, e.g. anthropic/claude-sonnet-4-5 or openai/gpt-4.1`},
		{name: "unknown provider", file: `{}`, flag: "google/gemini",
			err: `model "google/gemini": unknown provider "google" (use one of: anthropic, openai)`},
		{name: "empty id", file: `{}`, flag: "openai/",
			err: `model "openai/": the model id after the slash is missing, e.g. openai/gpt-4.1`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(`{"model": `+tt.file+`}`), "config.json", noEnv)
			if err != nil {
				t.Fatal(err)
			}
			err = c.ApplyModelFlag(tt.flag)
			if tt.err != "" {
				if err == nil || err.Error() != tt.err {
					t.Fatalf("error = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if err := c.Resolve(env(tt.env)); err != nil {
				t.Fatal(err)
			}
			m := c.Model
			if m.Provider != tt.provider || m.ID != tt.id || m.APIKey != tt.key || m.BaseURL != tt.baseURL {
				t.Errorf("got %s/%s key %q url %q; want %s/%s key %q url %q",
					m.Provider, m.ID, m.APIKey, m.BaseURL, tt.provider, tt.id, tt.key, tt.baseURL)
			}
		})
	}
}

func TestApplyModelFlagAfterResolve(t *testing.T) {
	c, err := Parse([]byte(`{}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	vars := env(map[string]string{"ANTHROPIC_API_KEY": "a", "OPENAI_API_KEY": "o"})
	if err := c.Resolve(vars); err != nil {
		t.Fatal(err)
	}
	if err := c.ApplyModelFlag("openai/gpt-4.1"); err != nil {
		t.Fatal(err)
	}
	if err := c.Resolve(vars); err != nil {
		t.Fatal(err)
	}
	if c.Model.APIKey != "o" || c.Model.keyFrom != "OPENAI_API_KEY" {
		t.Errorf("the anthropic key survived a switch to openai: %+v", c.Model)
	}
}

func TestApplySandboxFlag(t *testing.T) {
	tests := []struct {
		flag string
		want Sandbox
		err  string
	}{
		{flag: "host", want: Sandbox{Type: "host", Env: []string{"GH_TOKEN"}}},
		{flag: "bwrap", want: Sandbox{Type: "bwrap", Isolation: "user", Offline: true, Env: []string{"GH_TOKEN"}}},
		{flag: "docker:mom-sandbox", want: Sandbox{Type: "docker", Container: "mom-sandbox", Env: []string{"GH_TOKEN"}}},
		{flag: "docker", err: `sandbox "docker": docker needs the name of a running container: docker:<container>, e.g. docker:mom-sandbox`},
		{flag: "docker:", err: `sandbox "docker:": docker needs the name of a running container: docker:<container>, e.g. docker:mom-sandbox`},
		{flag: "host:x", err: `sandbox "host:x": host takes no argument; use "host"`},
		{flag: "podman:x", err: `sandbox "podman:x": unknown sandbox (use host, docker:<container> or bwrap)`},
		{flag: "", err: `sandbox "": unknown sandbox (use host, docker:<container> or bwrap)`},
	}
	for _, tt := range tests {
		c := &Config{Sandbox: Sandbox{Type: SandboxBwrap, Isolation: "user", Offline: true, Env: []string{"GH_TOKEN"}}}
		err := c.ApplySandboxFlag(tt.flag)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("%q: error = %v, want %q", tt.flag, err, tt.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(c.Sandbox, tt.want) {
			t.Errorf("%q: sandbox = %+v, %v; want %+v", tt.flag, c.Sandbox, err, tt.want)
		}
	}
}
