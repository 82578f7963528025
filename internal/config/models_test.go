package config

import (
	"strings"
	"testing"
)

func TestNamedModels(t *testing.T) {
	t.Parallel()
	chat := Platform{Type: "chat"}
	c, err := Parse([]byte(`{
  "model": {"provider": "anthropic", "apiKey": "a"},
  "models": {
    "local": {"provider": "openai", "baseUrl": "http://127.0.0.1:11434/v1", "id": "llama3.1:8b"},
    "gpt": {"provider": "openai", "id": "gpt-4.1"}
  },
  "adapters": {"team": {"type": "chat", "model": "gpt"}, "other": {"type": "chat"}},
  "channels": {"team/C1": {"model": "local"}, "team/C2": {"model": "default"}}
}`), "config.json", noEnv, chat)
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Resolve(func(k string) (string, bool) {
		return map[string]string{"OPENAI_API_KEY": "o"}[k], k == "OPENAI_API_KEY"
	}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ adapter, channel, want string }{
		{"team", "C1", "local"}, {"team", "C2", "gpt"}, {"team", "C9", "gpt"}, {"other", "C1", ""},
	} {
		if got := c.ModelFor(tc.adapter, tc.channel); got != tc.want {
			t.Errorf("ModelFor(%s, %s) = %q, want %q", tc.adapter, tc.channel, got, tc.want)
		}
	}
	if m, _ := c.NamedModel("gpt"); m.APIKey != "o" || m.ID != "gpt-4.1" {
		t.Errorf("gpt = %+v; want its key from OPENAI_API_KEY", m)
	}
	if m, _ := c.NamedModel(""); m.Provider != "anthropic" {
		t.Errorf("the default model = %+v", m)
	}
	sum := c.Summary()
	for _, want := range []string{"models:\n", "  gpt: openai/gpt-4.1, key from OPENAI_API_KEY; used by team (adapter)",
		"  local: openai/llama3.1:8b at http://127.0.0.1:11434/v1, key from OPENAI_API_KEY; used by team/C1"} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
}

func TestNamedModelErrors(t *testing.T) {
	t.Parallel()
	chat := Platform{Type: "chat"}
	cases := []struct{ in, want string }{
		{`{"adapters": {"a": {"type": "chat", "model": "fast"}}}`,
			`adapters.a.model: no model is called "fast": name models in the top-level "models" section first`},
		{`{"models": {"x": {"provider": "openai", "id": "m"}}, "adapters": {"a": {"type": "chat"}}, "channels": {"a/C1": {"model": "y"}}}`,
			`channels["a/C1"].model: no model is called "y" (models: default, x)`},
		{`{"models": {"default": {"provider": "openai"}}}`, `models.default: model names may use letters`},
		{`{"models": {"x": {"provider": "openia"}}}`, `models.x.provider: "openia" is not a valid provider`},
		{`{"models": {"x": {"idd": "m"}}}`, `models.x: unknown key "idd"`},
	}
	for _, tc := range cases {
		_, err := Parse([]byte(tc.in), "config.json", noEnv, chat)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.in, err, tc.want)
		}
	}
}
