package web

import (
	_ "embed"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is the web chat's "type" in config.json.
const Kind platform.Kind = "web"

// templateText is the web chat's part of the first-run config.json. It starts the chat,
// on loopback with a generated token: it needs no account, so a new user can talk to mom in a
// browser before setting up any platform.
//
//go:embed template.jsonc
var templateText string

// Platform is the web chat as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "a web chat",
		Config: configPlatform(),
		// The chat reads the scheduled events of every configured adapter, and says on
		// stderr where to open it.
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Name: name, Config: *c, Store: env.Store, Adapters: env.Adapters, Announce: env.Stderr, Log: env.Log}), nil
		}),
		Template: config.TemplatePart{Name: "the web chat", Text: templateText},
	}
}
