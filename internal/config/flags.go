package config

import (
	"fmt"
	"slices"
	"strings"
)

// ApplyModelFlag overrides the model's provider and id from a "provider/id" string such as
// "anthropic/claude-sonnet-4-5" or "openai/meta-llama/llama-3" (split at the first slash, since
// model ids may hold slashes). When the file names a different provider, its apiKey and
// baseUrl belong to that provider and are dropped; Resolve then takes the key from the new
// provider's environment variable.
func (c *Config) ApplyModelFlag(spec string) error {
	provider, id, ok := strings.Cut(spec, "/")
	if !ok {
		return fmt.Errorf("model %q: expected provider/id, e.g. anthropic/%s or openai/%s", spec, DefaultAnthropicModel, DefaultOpenAIModel)
	}
	if !slices.Contains(providers, provider) {
		return fmt.Errorf("model %q: unknown provider %q (use one of: %s)", spec, provider, strings.Join(providers, ", "))
	}
	if id == "" {
		return fmt.Errorf("model %q: the model id after the slash is missing, e.g. %s/%s", spec, provider, defaultModel(provider))
	}
	m := &c.Model
	if m.keyFrom != "" && m.keyFrom != keyFromFile && m.Provider != provider {
		// A key an earlier Resolve took from the environment for the old provider.
		m.APIKey, m.keyFrom = "", ""
	}
	if m.fileProvider != "" && m.fileProvider != provider {
		if m.keyFrom == keyFromFile {
			m.APIKey, m.keyFrom = "", ""
		}
		m.BaseURL = ""
	}
	m.Provider, m.ID = provider, id
	return nil
}

func defaultModel(provider string) string {
	if provider == ProviderOpenAI {
		return DefaultOpenAIModel
	}
	return DefaultAnthropicModel
}

// ApplySandboxFlag overrides the sandbox from "host", "bwrap" or "docker:<container>". The
// file's env list is kept; its isolation and network settings are kept for bwrap and dropped
// for the others, which cannot enforce them.
func (c *Config) ApplySandboxFlag(spec string) error {
	kind, container, hasArg := strings.Cut(spec, ":")
	old := c.Sandbox
	switch kind {
	case SandboxHost, SandboxBwrap:
		if hasArg {
			return fmt.Errorf("sandbox %q: %s takes no argument; use %q", spec, kind, kind)
		}
		c.Sandbox = Sandbox{Type: kind, Env: old.Env}
		if kind == SandboxBwrap {
			c.Sandbox.Isolation, c.Sandbox.Offline = old.Isolation, old.Offline
		}
	case SandboxDocker:
		if container == "" {
			return fmt.Errorf("sandbox %q: docker needs the name of a running container: docker:<container>, e.g. docker:mom-sandbox", spec)
		}
		c.Sandbox = Sandbox{Type: SandboxDocker, Container: container, Env: old.Env}
	default:
		return fmt.Errorf("sandbox %q: unknown sandbox (use host, docker:<container> or bwrap)", spec)
	}
	return nil
}
