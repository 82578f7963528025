package telegram

import (
	_ "embed"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is Telegram's "type" in config.json.
const Kind platform.Kind = "telegram"

// templateText is Telegram's part of the first-run config.json: a commented example of
// an adapter, after what to set up on Telegram first.
//
//go:embed template.jsonc
var templateText string

// Platform is Telegram as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "Telegram",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Base: env.Base(name), Config: *c})
		}),
		Template: config.TemplatePart{Name: "Telegram", Text: templateText},
	}
}
