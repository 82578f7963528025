//go:build nowhatsapp

package adapter

import "github.com/mom-agent/mom/internal/adapter/platform"

// optionalPlatforms are the platforms a build may leave out. This build, made with
// `-tags nowhatsapp`, has none: no WhatsApp, so neither whatsmeow nor libsignal (GPL-3.0) is
// in the binary, and a "whatsapp" adapter in config.json is refused as not available in this
// version of mom.
func optionalPlatforms() []platform.Spec {
	return nil
}
