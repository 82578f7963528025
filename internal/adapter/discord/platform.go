package discord

import (
	_ "embed"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is Discord's "type" in config.json.
const Kind platform.Kind = "discord"

// templateText is Discord's part of the first-run config.json: a commented example of an
// adapter, after what to set up on Discord first.
//
//go:embed template.jsonc
var templateText string

// Platform is Discord as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "Discord",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Base: env.Base(name), Config: *c}), nil
		}),
		Template: config.TemplatePart{Name: "Discord", Text: templateText},
	}
}
