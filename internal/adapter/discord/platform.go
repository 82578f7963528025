package discord

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// Kind is Discord's "type" in config.json.
const Kind platform.Kind = "discord"

// Platform is Discord as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "Discord",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Name: name, Config: *c, Store: env.Store, Log: env.Log}), nil
		}),
	}
}
