package web

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// Kind is the web chat's "type" in config.json.
const Kind platform.Kind = "web"

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
	}
}
