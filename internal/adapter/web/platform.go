package web

import (
	"fmt"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is the web chat's "type" in config.json.
const Kind platform.Kind = "web"

// Platform is the web chat as mom's registry of platforms knows it.
func Platform() platform.Spec {
	return platform.Spec{Name: "a web chat", Config: configPlatform(), New: build}
}

// build makes the chat of a config entry. It reads the scheduled events of every configured
// adapter, and says on stderr where to open it.
func build(e config.Adapter, env platform.Env) (chat.Adapter, error) {
	c, ok := e.Options.(*Config)
	if !ok {
		return nil, fmt.Errorf("adapter %s: no web chat settings", e.Name)
	}
	return New(Options{Name: e.Name, Config: *c, Store: env.Store, Adapters: env.Adapters, Announce: env.Stderr, Log: env.Log}), nil
}
