//go:build !nowhatsapp

package whatsapp

import (
	"context"
	_ "embed"
	"time"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is WhatsApp's "type" in config.json.
const Kind platform.Kind = "whatsapp"

// templateText is WhatsApp's part of the first-run config.json: a commented example of an
// adapter, after what to set up first.
//
//go:embed template.jsonc
var templateText string

// Connector opens the WhatsApp connection of the adapter called name, over its linked
// device's store, without connecting yet: Connect in mom, the in-process fake
// (internal/fake/whatsapp) in tests, since WhatsApp's servers cannot be faked on the network.
type Connector func(ctx context.Context, name string, env platform.Env) (Client, error)

// Option changes how PlatformOn builds its adapters.
type Option func(*Options)

// WithClock makes the adapters read the time from now instead of the system clock: a test
// moves its fake's clock past WhatsApp's edit window without waiting a quarter of an hour.
func WithClock(now func() time.Time) Option {
	return func(o *Options) { o.Now = now }
}

// Platform is WhatsApp as mom's registry of platforms knows it.
func Platform() platform.Spec { return PlatformOn(Connect) }

// PlatformOn is WhatsApp with its connections opened by connect: the tests' way to run the
// whole of mom on a fake WhatsApp.
func PlatformOn(connect Connector, opts ...Option) platform.Spec {
	return platform.Spec{
		Name:   "WhatsApp",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			o := Options{Base: env.Base(name), Config: *c, Env: env, Connect: connect}
			for _, opt := range opts {
				opt(&o)
			}
			return New(o), nil
		}),
		Template: config.TemplatePart{Name: "WhatsApp", Text: templateText},
		Commands: []platform.Command{linkCommand()},
	}
}
