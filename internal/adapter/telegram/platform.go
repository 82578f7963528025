package telegram

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// Kind is Telegram's "type" in config.json.
const Kind platform.Kind = "telegram"

// Platform is Telegram as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "Telegram",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Name: name, Config: *c, Store: env.Store, Log: env.Log})
		}),
	}
}
