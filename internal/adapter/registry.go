// Package adapter is the registry of chat platforms: the one place that lists them. For each
// platform kind ("slack", "cli") it knows the factory that builds the adapter, the decoder and
// checks of its entries in config.json, the name the system prompt calls it by, the
// sub-commands it adds to mom and its part of the first-run config.json. Everything else in
// mom — the app in cmd/mom, config, the hub — works through the registry or through what it
// hands out, and names no platform.
//
// Adding a platform is one package beside the others (internal/adapter/<name>, with a
// Platform function that returns its platform.Spec) and one line in Builtin (or, for a
// platform a build may leave out, in a pair of build-tagged files like
// platforms_whatsapp.go); docs/adding-a-platform.md walks through it.
package adapter

import (
	"fmt"

	"github.com/mom-agent/mom/internal/adapter/cli"
	"github.com/mom-agent/mom/internal/adapter/discord"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/adapter/slack"
	"github.com/mom-agent/mom/internal/adapter/telegram"
	"github.com/mom-agent/mom/internal/adapter/web"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Builtin returns the registry of the platforms built into mom, in the order mom's usage and
// its documentation list them. WhatsApp comes last, from optionalPlatforms: a build tag
// (nowhatsapp) leaves it out, with its GPL-3.0 dependency.
func Builtin() *Registry {
	return NewRegistry(append([]platform.Spec{
		cli.Platform(),
		web.Platform(),
		slack.Platform(),
		discord.Platform(),
		telegram.Platform(),
	}, optionalPlatforms()...)...)
}

// Env is what an adapter is built with besides its config entry (see platform.Env). It is
// named here too so that the app, which builds adapters through the registry, needs no other
// package of the platforms'.
type Env = platform.Env

// Command is a sub-command of mom that a platform adds (see platform.Command).
type Command = platform.Command

// ErrUsage marks errors in how mom was called, in the platforms' commands too (see
// platform.ErrUsage).
var ErrUsage = platform.ErrUsage

// Registry is a set of platforms by kind. It is not changed after NewRegistry, so it is safe for
// concurrent use.
type Registry struct {
	specs  []platform.Spec
	byKind map[platform.Kind]int
}

// NewRegistry returns a registry of specs. Two specs of one kind are a mistake in the list; the first
// is kept.
func NewRegistry(specs ...platform.Spec) *Registry {
	r := &Registry{byKind: make(map[platform.Kind]int, len(specs))}
	for _, s := range specs {
		if _, dup := r.byKind[s.Kind()]; dup {
			continue
		}
		r.byKind[s.Kind()] = len(r.specs)
		r.specs = append(r.specs, s)
	}
	return r
}

// Specs returns every platform in the registry, in its order.
func (r *Registry) Specs() []platform.Spec { return append([]platform.Spec(nil), r.specs...) }

// Lookup returns the platform of kind k.
func (r *Registry) Lookup(k platform.Kind) (platform.Spec, bool) {
	i, ok := r.byKind[k]
	if !ok {
		return platform.Spec{}, false
	}
	return r.specs[i], true
}

// Config returns how config.json's adapters of every platform are read, for config.Load.
func (r *Registry) Config() []config.Platform {
	out := make([]config.Platform, len(r.specs))
	for i, s := range r.specs {
		out[i] = s.Config
	}
	return out
}

// Build makes the adapter a config entry describes, without connecting it.
func (r *Registry) Build(e config.AdapterEntry, env Env) (chat.Adapter, error) {
	s, ok := r.Lookup(platform.Kind(e.Type))
	if !ok || s.New == nil {
		return nil, fmt.Errorf("adapter %s: type %q is not available in this version of mom", e.Name, e.Type)
	}
	return s.New(e, env)
}

// OneShot makes the adapter `mom run` answers one prompt through, called name, in channel
// (see platform.Spec.OneShot), and returns the platform it belongs to.
func (r *Registry) OneShot(name, channel string, env Env) (chat.Adapter, *config.Platform, error) {
	for _, s := range r.specs {
		if s.OneShot != nil {
			p := s.Config
			return s.OneShot(name, channel, env), &p, nil
		}
	}
	return nil, nil, fmt.Errorf("this version of mom has no terminal chat to answer one prompt with")
}

// Name is what the system prompt says an adapter of kind lives in ("Slack", "a terminal"), or
// "" for a kind the registry does not have.
func (r *Registry) Name(kind string) string {
	s, _ := r.Lookup(platform.Kind(kind))
	return s.Name
}

// Commands returns the sub-commands the platforms add to mom, in the registry's order.
func (r *Registry) Commands() []Command {
	var out []Command
	for _, s := range r.specs {
		out = append(out, s.Commands...)
	}
	return out
}

// Template returns the platforms' parts of the config.json mom writes on first run, in the
// registry's order, for config.EnsureDir and config.TemplateWritten.
func (r *Registry) Template() []config.TemplatePart {
	var out []config.TemplatePart
	for _, s := range r.specs {
		if s.Template.Text != "" {
			out = append(out, s.Template)
		}
	}
	return out
}
