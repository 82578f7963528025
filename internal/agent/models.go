package agent

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/compact"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
	"github.com/mom-agent/mom/internal/store"
)

// ModelChoice is one of the models a channel's runs may use instead of the default
// (config.json's "models"): its provider, the model, and what the default's Options say of it.
type ModelChoice struct {
	// Provider answers model requests; nil when it has no key, and then every run on it ends
	// at once with NoProviderHint.
	Provider       llm.Provider
	NoProviderHint string
	RefusedKeyHint string
	Model          llm.Model
	Thinking       llm.ThinkingLevel
	MaxTokens      int
}

// runConfig is the loop's configuration for a run on the named model ("" for the default),
// and, when it has no provider, the hint that says why.
func (a *Agent) runConfig(name string) (loopConfig, string) {
	cfg := a.cfg
	if name == "" {
		return cfg, a.opts.NoProviderHint
	}
	m, ok := a.opts.Models[name]
	if !ok {
		return loopConfig{}, fmt.Sprintf("this channel's model %q is not in config.json's \"models\" any more; name one of: %s (or /model default)",
			name, strings.Join(a.ModelNames(), ", "))
	}
	cfg.Provider, cfg.Model, cfg.Thinking, cfg.MaxTokens, cfg.RefusedKeyHint = m.Provider, m.Model, m.Thinking, m.MaxTokens, m.RefusedKeyHint
	return cfg, m.NoProviderHint
}

// ModelNames lists the models runs may use besides the default, sorted.
func (a *Agent) ModelNames() []string {
	names := make([]string, 0, len(a.opts.Models))
	for n := range a.opts.Models {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// ModelOf describes the named model ("" for the default) as provider/id, and whether it is
// one.
func (a *Agent) ModelOf(name string) (string, bool) {
	if name == "" {
		return a.cfg.Model.Provider + "/" + a.cfg.Model.ID, true
	}
	m, ok := a.opts.Models[name]
	return m.Model.Provider + "/" + m.Model.ID, ok
}

// noteModel records in the session that its model changed, as pi does with a model_change
// entry, when the run's model is not the one the session used last. A session that has used
// none yet needs no entry: its first answer names its model.
func noteModel(sess *session.Session, m llm.Model) error {
	provider, id, ok := sess.Model()
	if !ok || provider == m.Provider && id == m.ID {
		return nil
	}
	if _, err := sess.AppendModelChange(m.Provider, m.ID); err != nil {
		return fmt.Errorf("could not note the model change in context.jsonl: %w", err)
	}
	return nil
}

// ContextUse says how full the channel's context is for the named model: about how many
// tokens it holds, and the model's window (0 when the catalog does not know it).
func (a *Agent) ContextUse(ch *store.ChannelDir, model string) (tokens, window int) {
	cfg, _ := a.runConfig(model)
	sess, err := ch.Session()
	if err != nil {
		return 0, cfg.Model.ContextWindow
	}
	return compact.ContextTokens(sess.Entries()), cfg.Model.ContextWindow
}
