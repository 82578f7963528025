package cli

import (
	_ "embed"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is the terminal chat's "type" in config.json.
const Kind platform.Kind = "cli"

// templateText is the terminal chat's part of the first-run config.json. It starts the chat:
// it needs no account, so a new user can talk to mom at the keyboard before setting up any
// platform.
//
//go:embed template.jsonc
var templateText string

// Config are the terminal chat's own settings. It has none beyond the keys every adapter has;
// the type exists so every platform is handled alike.
type Config struct{}

// Describe adds nothing to `mom check`'s line about the terminal.
func (*Config) Describe() string { return "" }

// Platform is the terminal chat as mom's registry of platforms knows it: the chat at this
// process's keyboard, and what `mom run` answers one prompt through.
func Platform() platform.Spec {
	return platform.Spec{
		Name: "a terminal",
		Config: config.Platform{
			Type: string(Kind),
			// The person at the keyboard runs mom.
			DM:       config.DMPolicy{Everyone: true},
			UserID:   "local",
			Terminal: true,
			Decode:   func(*config.Object) config.Options { return &Config{} },
		},
		New: func(e config.AdapterEntry, env platform.Env) (chat.Adapter, error) {
			return New(Options{Name: e.Name, In: env.Stdin, Out: env.Stdout, Progress: env.Stderr,
				User: env.LocalUser, Interactive: env.Interactive}), nil
		},
		OneShot: func(name, channel string, env platform.Env) chat.Adapter {
			return New(Options{Name: name, Channel: channel, In: env.Stdin, Out: env.Stdout, Progress: env.Stderr,
				User: env.LocalUser, OneShot: true, AskIn: env.AskIn})
		},
		Template: config.TemplatePart{Name: "the terminal", Text: templateText},
	}
}
