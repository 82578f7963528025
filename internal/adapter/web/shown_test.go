package web

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/platform"
)

// TestCardsOfOtherAdapters: a card another adapter shows (WhatsApp's QR code) goes to every
// browser and into the general channel's history; shown again under its key it changes in
// place (card_update, one card in the history, with the new content); closed, it says what
// became of it and leaves the history. Nobody can press it.
func TestCardsOfOtherAdapters(t *testing.T) {
	t.Parallel()
	var a *Adapter
	base := startChatWith(t, 0, func(x *Adapter) { a = x })
	c := a.live.subscribe()
	drain(t, c)
	history := func() []frame {
		t.Helper()
		resp := call(t, base, "GET", "/api/channels/general/messages", "")
		var h struct{ Frames []frame }
		if err := json.NewDecoder(resp.Body).Decode(&h); err != nil {
			t.Fatal(err)
		}
		return h.Frames
	}

	a.ShowCard("link-wa", platform.Card{Title: "Link WhatsApp (wa)", Text: "Scan **this**", Image: "data:image/png;base64,AAAA"})
	got := drain(t, c)
	if len(got) != 1 || got[0].Type != "card" || got[0].Channel != DefaultChannel || got[0].Card.Image != "data:image/png;base64,AAAA" ||
		got[0].Card.HTML != "<p>Scan <strong>this</strong></p>" {
		t.Fatalf("the card's frames: %+v", got)
	}
	id := got[0].ID

	a.ShowCard("link-wa", platform.Card{Title: "Link WhatsApp (wa)", Text: "Scan **this**", Image: "data:image/png;base64,BBBB"})
	got = drain(t, c)
	if len(got) != 1 || got[0].Type != "card_update" || got[0].ID != id || got[0].Card.Image != "data:image/png;base64,BBBB" ||
		got[0].Card.HTML == "" {
		t.Errorf("showing it again: %+v; want card %s updated in place", got, id)
	}
	if h := history(); len(h) != 1 || h[0].ID != id || h[0].Card.Image != "data:image/png;base64,BBBB" {
		t.Errorf("the history: %+v; want card %s with the new image", h, id)
	}
	resp := call(t, base, "POST", "/api/channels/general/cards/"+id, `{"name": "Ada", "button": "ok"}`)
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("pressing the card: %d, want 400", resp.StatusCode)
	}

	a.CloseCard("link-wa", "Linked: mom answers as +43660000001 on WhatsApp.")
	got = drain(t, c)
	if len(got) != 1 || got[0].Type != "card_done" || got[0].ID != id || got[0].Text != "Linked: mom answers as +43660000001 on WhatsApp." {
		t.Errorf("closing it: %+v", got)
	}
	if h := history(); len(h) != 0 {
		t.Errorf("the closed card is still in the history: %+v", h)
	}
	a.CloseCard("link-wa", "again") // nothing shown under the key any more
	if got := drain(t, c); len(got) != 0 {
		t.Errorf("closing it twice: %+v", got)
	}
}
