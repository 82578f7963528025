package config

import (
	"fmt"
	"slices"
	"sort"
	"strings"
)

// Several models: config.json's "models" names model entries ("sonnet", "local", ...) with the
// keys of "model"; "model" stays the default. An adapter's or a channel's "model" names the
// entry its runs use (ModelFor), and `/model <name>` in the chat overrides it for a channel.

// DefaultModelName is how the chat and mom check name the "model" section among the named
// ones.
const DefaultModelName = "default"

// validModelName reports whether name can name a model entry: letters, digits, "-", "_" and
// "." (so "gpt-4.1" works), 1 to 64 characters, and not the default's name.
func validModelName(name string) bool {
	if name == "" || len(name) > 64 || name == DefaultModelName {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return true
}

// models decodes the "models" object.
func (d *decoder) models(o *object) map[string]Model {
	out := make(map[string]Model)
	for _, m := range o.members() {
		name := memberName(m)
		path := joinPath(o.path, name)
		if !validModelName(name) {
			d.fail(path, "model names may use letters, digits, \"-\", \"_\" and \".\" (1 to 64 characters), and %q names the \"model\" section", DefaultModelName)
			continue
		}
		mo, ok := d.object(&m.Value, path)
		if !ok {
			continue
		}
		model := Model{Thinking: ThinkingOff}
		d.model(mo, &model)
		out[name] = model
	}
	return out
}

// modelRef decodes a "model" key that names a model entry (an adapter's, a channel's).
func (d *decoder) modelRef(o *object, names map[string]Model) (string, bool) {
	s, ok := o.str("model")
	if !ok {
		return "", false
	}
	if s == DefaultModelName {
		return "", true
	}
	if _, known := names[s]; !known {
		known := ModelNames(names)
		if len(known) == 0 {
			d.fail(joinPath(o.path, "model"), "no model is called %q: name models in the top-level \"models\" section first, e.g. \"models\": {%q: {\"provider\": \"openai\", \"baseUrl\": \"http://127.0.0.1:11434/v1\", \"id\": \"llama3.1:8b\"}}", s, s)
		} else {
			d.fail(joinPath(o.path, "model"), "no model is called %q (models: %s)", s, strings.Join(append([]string{DefaultModelName}, known...), ", "))
		}
		return "", false
	}
	return s, true
}

// ModelNames returns the names of models, sorted.
func ModelNames(models map[string]Model) []string {
	names := make([]string, 0, len(models))
	for n := range models {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ModelFor returns the name of the model entry that runs in a channel of the named adapter
// use as config.json sets it: the channel's, else the adapter's; "" for the default.
func (c *Config) ModelFor(adapter, channel string) string {
	if ch, ok := c.Channels[adapter+"/"+channel]; ok && ch.Model != "" {
		return ch.Model
	}
	if e, ok := c.AdapterEntry(adapter); ok {
		return e.Model
	}
	return ""
}

// NamedModel returns the model entry called name: the default for "" or DefaultModelName.
func (c *Config) NamedModel(name string) (Model, bool) {
	if name == "" || name == DefaultModelName {
		return c.Model, true
	}
	m, ok := c.Models[name]
	return m, ok
}

// resolveModels settles every named model as Resolve settles the default: a provider and an
// id, and the key from the provider's environment variable when the entry has none.
func (c *Config) resolveModels(env func(string) string) error {
	for _, name := range ModelNames(c.Models) {
		m := c.Models[name]
		if err := resolveModel(&m, env, fmt.Sprintf("%s: models.%s", c.Path, name)); err != nil {
			return err
		}
		c.Models[name] = m
	}
	return nil
}

// modelsSummary is mom check's lines about the named models and where they are used.
func (c *Config) modelsSummary() string {
	if len(c.Models) == 0 {
		return ""
	}
	users := map[string][]string{}
	for _, a := range c.Adapters {
		if a.Model != "" {
			users[a.Model] = append(users[a.Model], a.Name+" (adapter)")
		}
	}
	for key, ch := range c.Channels {
		if ch.Model != "" {
			users[ch.Model] = append(users[ch.Model], key)
		}
	}
	var b strings.Builder
	b.WriteString("models:\n")
	for _, name := range ModelNames(c.Models) {
		m := c.Models[name]
		key := "no key"
		switch {
		case m.APIKey != "":
			key = "key from " + m.keyFrom
		case m.BaseURL != "":
			key = "no key (local server)"
		}
		fmt.Fprintf(&b, "  %s: %s/%s", name, m.Provider, m.ID)
		if m.BaseURL != "" {
			fmt.Fprintf(&b, " at %s", RedactURL(m.BaseURL))
		}
		fmt.Fprintf(&b, ", %s", key)
		if u := users[name]; len(u) > 0 {
			slices.Sort(u)
			fmt.Fprintf(&b, "; used by %s", strings.Join(u, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
