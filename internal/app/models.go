package app

import (
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
)

// catalogModel is m as the model catalog knows it, with the config's context window.
func (a *App) catalogModel(name string, m config.Model) llm.Model {
	model := llm.Lookup(m.Provider, m.ID)
	if m.ContextWindow > 0 {
		model.ContextWindow = m.ContextWindow
	}
	if !model.Known {
		a.Log.Info("model not in the catalog: costs show as zero", "name", name, "model", m.Provider+"/"+m.ID)
	}
	return model
}

// namedModels makes the models of config.json's "models" for the agent. One without a key
// has no provider: runs on it say how to give it one, while the others work.
func (a *App) namedModels() map[string]agent.ModelChoice {
	out := make(map[string]agent.ModelChoice, len(a.Config.Models))
	for _, name := range config.ModelNames(a.Config.Models) {
		m := a.Config.Models[name]
		c := agent.ModelChoice{
			Model: a.catalogModel(name, m), Thinking: llm.ThinkingLevel(m.Thinking), MaxTokens: m.MaxTokens,
			NoProviderHint: a.Config.MissingKeyHintFor(name), RefusedKeyHint: a.Config.RefusedKeyHintFor(name),
		}
		if c.NoProviderHint == "" {
			c.Provider = a.provider(m)
		} else {
			a.Log.Warn("a model in config.json has no API key; channels that use it cannot run", "name", name)
		}
		out[name] = c
	}
	return out
}

// provider is the model's client, its calls capped and recorded (Spend) and counted (Metrics).
func (a *App) provider(m config.Model) llm.Provider {
	return a.Spend.Provider(a.Metrics.Provider(newProvider(m, a.Log)))
}
