//go:build !nowhatsapp

package app

import (
	waadapter "github.com/mom-agent/mom/internal/adapter/whatsapp"
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/health"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/render"
)

// WhatsApp's abilities, checked as abilities_test.go checks the others'; in a file of its own
// because `-tags nowhatsapp` leaves the adapter out.
var (
	_ chat.Adapter     = (*waadapter.Adapter)(nil)
	_ render.Typist    = (*waadapter.Adapter)(nil)
	_ health.Connector = (*waadapter.Adapter)(nil)
	_ hub.BotUser      = (*waadapter.Adapter)(nil)
	_ hub.Groups       = (*waadapter.Adapter)(nil)
	_ agent.Membership = (*waadapter.Adapter)(nil)
	// An unlinked device shows its QR code in the web chat (linking.go).
	_ linker = (*waadapter.Adapter)(nil)
)
