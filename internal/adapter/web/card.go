package web

import (
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// card is a message from mom that asks for a decision (approvals: Allow, Allow always,
// Deny) or shows something to act on (a QR code to link WhatsApp): a title, text, folded
// details, an image and buttons. The page draws it in the channel and posts the button a
// person presses to /api/channels/{channel}/cards/{id}; the card's press function decides
// what that does, and the card is then done for every browser (card_done).
type card struct {
	Title string `json:"title"`
	// HTML is the card's text, rendered from markdown (set by showCard from Text).
	Text string `json:"text,omitempty"`
	HTML string `json:"html,omitempty"`
	// Detail is shown folded, as preformatted text.
	Detail string `json:"detail,omitempty"`
	// Image is a data: URL (PNG or SVG) the page shows, such as a QR code.
	Image   string   `json:"image,omitempty"`
	Buttons []button `json:"buttons,omitempty"`
}

// button is one of a card's buttons. Style is "primary", "danger" or "" (plain).
type button struct {
	ID    string `json:"id"`
	Label string `json:"label"`
	Style string `json:"style,omitempty"`
}

// pressFunc handles a button pressed by who; it returns what the card says from then on
// ("Allowed by Ada"), or an error the person is shown, the card staying as it was.
type pressFunc func(who chat.User, button string) (done string, err error)

// pending is a card waiting for a press.
type pending struct {
	channel string
	card    card
	press   pressFunc
}

// cards are the cards waiting for a press, by id, and the cards other adapters show
// (ShowCard), by their key.
type cards struct {
	mu    sync.Mutex
	open  map[string]*pending
	byKey map[string]string
}

func newCards() *cards {
	return &cards{open: make(map[string]*pending), byKey: make(map[string]string)}
}

// showCard shows c in channel to every browser (and to pages loaded later, until it is done)
// and calls press when someone presses one of its buttons. It returns the card's id.
func (a *Adapter) showCard(channel string, c card, press pressFunc) string {
	id := "card-" + a.nextID(time.Now())
	if c.Text != "" {
		c.HTML = a.md.html(c.Text)
	}
	a.cards.mu.Lock()
	a.cards.open[id] = &pending{channel: channel, card: c, press: press}
	a.cards.mu.Unlock()
	a.live.broadcast(frame{Type: "card", Channel: channel, ID: id, Card: &c})
	return id
}

// closeCard takes the card's buttons away, showing text instead: it was answered elsewhere,
// or the question went away.
func (a *Adapter) closeCard(id, text string) {
	a.cards.mu.Lock()
	p := a.cards.open[id]
	delete(a.cards.open, id)
	a.cards.mu.Unlock()
	if p != nil {
		a.live.broadcast(frame{Type: "card_done", Channel: p.channel, ID: id, Text: text})
	}
}

// openCards returns the frames of channel's cards still waiting for a press.
func (a *Adapter) openCards(channel string) []frame {
	a.cards.mu.Lock()
	defer a.cards.mu.Unlock()
	var out []frame
	for id, p := range a.cards.open {
		if p.channel == channel {
			c := p.card
			out = append(out, frame{Type: "card", Channel: channel, ID: id, Card: &c})
		}
	}
	return out
}

// pressCard answers POST /api/channels/{channel}/cards/{card} {"name": "...", "button": "..."}.
func (a *Adapter) pressCard(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	var req struct {
		Name   string `json:"name"`
		Button string `json:"button"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "send the button as JSON: {\"name\": \"ada\", \"button\": \"allow\"}")
		return
	}
	who, err := person(req.Name, a.Bot().Username)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	id := r.PathValue("card")
	a.cards.mu.Lock()
	p := a.cards.open[id]
	gone := p == nil || p.channel != ch.ID()
	known := !gone && hasButton(p.card, req.Button)
	if known {
		delete(a.cards.open, id) // one press decides
	}
	a.cards.mu.Unlock()
	if gone {
		writeError(w, http.StatusGone, "this card was answered already, or mom restarted since it was shown")
		return
	}
	if !known {
		writeError(w, http.StatusBadRequest, "this card has no button "+req.Button)
		return
	}
	done, err := p.press(who, req.Button)
	if err != nil {
		a.cards.mu.Lock()
		a.cards.open[id] = p
		a.cards.mu.Unlock()
		writeError(w, http.StatusConflict, err.Error())
		return
	}
	a.remember(who)
	a.live.broadcast(frame{Type: "card_done", Channel: p.channel, ID: id, Text: done})
	writeJSON(w, http.StatusOK, map[string]string{"done": done})
}

func hasButton(c card, id string) bool {
	for _, b := range c.Buttons {
		if b.ID == id && id != "" {
			return true
		}
	}
	return false
}
