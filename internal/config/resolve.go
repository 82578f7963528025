package config

import (
	"fmt"
	"path/filepath"
)

// keyVar names the environment variable that holds a provider's API key.
func keyVar(provider string) string {
	if provider == ProviderOpenAI {
		return "OPENAI_API_KEY"
	}
	return "ANTHROPIC_API_KEY"
}

// Resolve settles the model after the file and any flags are applied:
//
//   - provider, when neither names one: anthropic if ANTHROPIC_API_KEY is set; otherwise
//     openai if OPENAI_API_KEY is set or a baseUrl is given; otherwise anthropic (and
//     MissingKeyHint explains what to do);
//   - id, when none is named: claude-sonnet-4-5 for anthropic, gpt-4.1 for openai. A baseUrl
//     server with provider openai has no default model, so that is an error asking for one;
//   - apiKey, when the file has none: the provider's environment variable.
//
// Resolve may be called again after another override; it only fills what is still empty.
func (c *Config) Resolve(getenv func(string) (string, bool)) error {
	env := func(name string) string {
		if getenv == nil {
			return ""
		}
		v, _ := getenv(name)
		return v
	}
	if err := resolveModel(&c.Model, env, c.Path+": model"); err != nil {
		return err
	}
	return c.resolveModels(env)
}

// resolveModel settles one model entry (see Resolve); where names it in errors.
func resolveModel(m *Model, env func(string) string, where string) error {
	if m.Provider == "" {
		switch {
		case env("ANTHROPIC_API_KEY") != "":
			m.Provider = ProviderAnthropic
		case env("OPENAI_API_KEY") != "" || m.BaseURL != "":
			m.Provider = ProviderOpenAI
		default:
			m.Provider = ProviderAnthropic
		}
	}
	if m.ID == "" {
		switch {
		case m.Provider == ProviderAnthropic:
			m.ID = DefaultAnthropicModel
		case m.BaseURL != "":
			return fmt.Errorf("%s.id: name the model to use on %s, e.g. \"id\": \"llama3.1:8b\" (or pass --model openai/<id> for the default)", where, m.BaseURL)
		default:
			m.ID = DefaultOpenAIModel
		}
	}
	if m.APIKey == "" {
		name := keyVar(m.Provider)
		if v := env(name); v != "" {
			m.APIKey = v
			m.keyFrom = name
		}
	}
	return nil
}

// MissingKeyHint returns "" when the model has an API key or does not need one (a baseUrl
// server, which may take none), and otherwise the exact steps to give it one, or to use a
// local model instead. Call it after Resolve.
func (c *Config) MissingKeyHint() string {
	return c.missingKeyHint(c.Model, `the "model" section`)
}

// MissingKeyHintFor is MissingKeyHint for the named model ("" for the default).
func (c *Config) MissingKeyHintFor(name string) string {
	m, ok := c.NamedModel(name)
	if !ok || name == "" || name == DefaultModelName {
		return c.MissingKeyHint()
	}
	return c.missingKeyHint(m, fmt.Sprintf(`"models" → %q`, name))
}

// missingKeyHint explains how to give m, written in section of the file, a key.
func (c *Config) missingKeyHint(m Model, section string) string {
	if m.APIKey != "" || m.BaseURL != "" {
		return ""
	}
	path := c.Path
	if abs, err := filepath.Abs(path); err == nil && path != "" {
		path = abs
	}
	name := keyVar(m.Provider)
	example := "sk-ant-..."
	if m.Provider == ProviderOpenAI {
		example = "sk-..."
	}
	return fmt.Sprintf(`mom has no API key for %s (model %s).

Export it in the shell that starts mom:

    export %s=%s

or set "apiKey" in %s of %s.

To use a local model instead, run an OpenAI-compatible server (Ollama, vLLM, llama.cpp)
and point mom at it in %s:

    "model": {"provider": "openai", "baseUrl": "http://127.0.0.1:11434/v1", "id": "llama3.1:8b"}
`, m.Provider, m.ID, name, example, section, path, path)
}

// RefusedKeyHint says where the key mom sends came from, for the error people see when the
// model's server refuses it. Call it after Resolve.
func (c *Config) RefusedKeyHint() string {
	return c.refusedKeyHint(c.Model, `the "model" section`)
}

// RefusedKeyHintFor is RefusedKeyHint for the named model ("" for the default).
func (c *Config) RefusedKeyHintFor(name string) string {
	m, ok := c.NamedModel(name)
	if !ok || name == "" || name == DefaultModelName {
		return c.RefusedKeyHint()
	}
	return c.refusedKeyHint(m, fmt.Sprintf(`"models" → %q`, name))
}

// refusedKeyHint says where the key of m, written in section of the file, came from.
func (c *Config) refusedKeyHint(m Model, section string) string {
	path := c.Path
	if abs, err := filepath.Abs(path); err == nil && path != "" {
		path = abs
	}
	switch {
	case m.keyFrom == keyFromFile:
		return fmt.Sprintf(`the key is "apiKey" in %s of %s; check it`, section, path)
	case m.keyFrom != "":
		return fmt.Sprintf("the key comes from the environment variable %s; check it", m.keyFrom)
	}
	return fmt.Sprintf(`mom sent no key; if the server at %s needs one, set "apiKey" in %s of %s`, m.BaseURL, section, path)
}
