package app

import (
	"log/slog"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// linker is the optional ability of an adapter whose account is linked by a phone scanning a
// QR code (WhatsApp; DESIGN's Linker). While its device is not linked it can link it in the
// background, handing out each code as the platform renews it.
type linker interface {
	chat.Adapter
	// ShowLinkCodes starts linking the device when it is not linked, and reports whether it
	// did. It calls show with each code to scan, as a card to show in place of the one
	// before, and done once it is over, with what became of it ("Linked as +43…"); both on
	// a goroutine of the adapter's, which its Stop ends.
	ShowLinkCodes(show func(platform.Card), done func(text string)) bool
}

// cardShower is the optional ability of an adapter that can show people cards from other
// adapters (the web chat).
type cardShower interface {
	// ShowCard shows c in place of the card shown last under key.
	ShowCard(key string, c platform.Card)
	// CloseCard ends the card shown under key, leaving text in its place.
	CloseCard(key, text string)
}

// showLinkCodes has every adapter that is not linked yet show its codes through the first
// adapter that can show cards, so that a phone can link it from the web chat (each adapter
// logs, too, how to link it with `mom whatsapp-link`). Without such an adapter nothing is
// linked in the background: nobody would see the codes.
func showLinkCodes(adapters []chat.Adapter, log *slog.Logger) {
	var shower cardShower
	var where string
	for _, ad := range adapters {
		if s, ok := ad.(cardShower); ok {
			shower, where = s, ad.Name()
			break
		}
	}
	if shower == nil {
		return
	}
	for _, ad := range adapters {
		if l, ok := ad.(linker); ok {
			key := "link-" + l.Name()
			if l.ShowLinkCodes(func(c platform.Card) { shower.ShowCard(key, c) }, func(text string) { shower.CloseCard(key, text) }) {
				log.Info("the QR code to link this adapter is shown in the web chat too", "adapter", l.Name(), "in", where)
			}
		}
	}
}
