//go:build !nowhatsapp

package adapter

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/adapter/whatsapp"
)

// optionalPlatforms are the platforms a build may leave out, after the others in Builtin's
// order. This build has WhatsApp: its library pulls in go.mau.fi/libsignal, which is
// GPL-3.0, so a mom built with it is, as a whole, distributed under the GPL-3.0.
// `go build -tags nowhatsapp` builds platforms_nowhatsapp.go instead.
func optionalPlatforms() []platform.Spec {
	return []platform.Spec{whatsapp.Platform()}
}
