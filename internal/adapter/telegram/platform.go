package telegram

import (
	"fmt"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is Telegram's "type" in config.json.
const Kind platform.Kind = "telegram"

// Platform is Telegram as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{Name: "Telegram", Config: configPlatform(), New: build}
}

// build makes the adapter of a config entry.
func build(e config.Adapter, env platform.Env) (chat.Adapter, error) {
	c, ok := e.Options.(*Config)
	if !ok {
		return nil, fmt.Errorf("adapter %s: no Telegram settings", e.Name)
	}
	return New(Options{Name: e.Name, Config: *c, Store: env.Store, Log: env.Log})
}
