package web

import (
	"errors"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// ShowCard shows c in the web chat's default channel, to the pages open and to those loaded
// later, in place of the card shown last under key: a card of another adapter, such as the
// QR code that links WhatsApp, renewed as WhatsApp renews it (internal/app's linking). A
// page redraws a card shown again where it is (card_update).
func (a *Adapter) ShowCard(key string, c platform.Card) {
	shown := card{Title: c.Title, Text: c.Text, Image: c.Image}
	if shown.Text != "" {
		shown.HTML = a.md.html(shown.Text)
	}
	a.cards.mu.Lock()
	id := a.cards.byKey[key]
	if p := a.cards.open[id]; p != nil {
		p.card = shown
		a.cards.mu.Unlock()
		a.live.broadcast(frame{Type: "card_update", Channel: p.channel, ID: id, Card: &shown})
		return
	}
	a.cards.mu.Unlock()
	id = a.showCard(DefaultChannel, card{Title: c.Title, Text: c.Text, Image: c.Image}, noButtons)
	a.cards.mu.Lock()
	a.cards.byKey[key] = id
	a.cards.mu.Unlock()
}

// CloseCard ends the card shown under key, leaving text in its place ("Linked as +43…").
func (a *Adapter) CloseCard(key, text string) {
	a.cards.mu.Lock()
	id, ok := a.cards.byKey[key]
	delete(a.cards.byKey, key)
	a.cards.mu.Unlock()
	if ok {
		a.closeCard(id, text)
	}
}

// noButtons is the press function of a card without buttons, which nobody can press.
func noButtons(chat.User, string) (string, error) {
	return "", errors.New("this card has no buttons")
}
