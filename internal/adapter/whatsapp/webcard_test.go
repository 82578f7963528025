//go:build !nowhatsapp

package whatsapp_test

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"net/http"
	"strings"
	"testing"

	"github.com/skip2/go-qrcode"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeweb "github.com/mom-agent/mom/internal/fake/web"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// webToken is the web chat's access token in the linking tests.
const webToken = "whatsapp-link-test-web-token"

// TestWhatsAppLinkedFromTheWebChat: with the web chat on, an unlinked device shows its QR code
// there as a card, the code WhatsApp gives now, renewed in place as WhatsApp renews it, also
// when the codes of one connection run out and mom asks for more. Once the phone scans it,
// the card says with which number mom is linked, and mom answers there without a restart.
func TestWhatsAppLinkedFromTheWebChat(t *testing.T) {
	t.Parallel()
	w := newWorld(t, asAdmin, fakewa.Unlinked())
	w.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": %q, "baseUrl": %q},
  "adapters": {
    "wa": {"type": "whatsapp", %s},
    "web": {"type": "web", "listen": "127.0.0.1:0", "token": %q},
  },
}`, apptest.APIKey, w.LLM.URL(), asAdmin, webToken))
	w.LLM.Enqueue(fakellm.Text("Linked and listening."))
	w.Start()
	w.WaitLog("Web chat: http://")
	base, _, ok := fakeweb.Announced(w.Log())
	if !ok {
		t.Fatalf("no web chat address in the log:\n%s", w.Log())
	}
	b := fakeweb.NewBrowser(t, base, webToken, w.Log)
	if status, _ := b.Request("GET", "/readyz", "", nil, nil); status.StatusCode != http.StatusServiceUnavailable {
		t.Errorf("/readyz = %d before the phone linked mom; want 503", status.StatusCode)
	}
	tab := b.OpenTab()

	// The card shows the code WhatsApp gives now, on a page loaded now and live.
	w.wa.WaitFor(t, "mom to show a code", func() bool { return w.wa.QRCode() != "" })
	id := w.cardShowing(b, w.wa.QRCode())
	w.wa.RenewQR()
	w.cardShowing(b, w.wa.QRCode())
	tab.ReadUntil("the renewed code in place", func(f fakeweb.Frame) bool {
		return f.Type == "card_update" && f.ID == id && f.Card != nil && shows(t, f.Card.Image, w.wa.QRCode())
	})

	// Nobody scans: the connection's codes run out, and mom asks for new ones.
	first := w.wa.Connections()
	for w.wa.RenewQR() {
	}
	w.wa.WaitFor(t, "mom to ask for new codes", func() bool { return w.wa.Connections() > first && w.wa.QRCode() != "" })
	if again := w.cardShowing(b, w.wa.QRCode()); again != id {
		t.Errorf("the new codes came in card %s; want them in place of card %s", again, id)
	}

	if !w.wa.ScanQR(w.wa.QRCode()) {
		t.Fatal("the phone could not scan the code mom shows")
	}
	w.wa.WaitFor(t, "mom to connect as the linked device", w.wa.Connected)
	tab.ReadUntil("the card to say mom is linked", func(f fakeweb.Frame) bool {
		return f.Type == "card_done" && f.ID == id && strings.Contains(f.Text, "+43660000001")
	})
	if c := w.card(b); c != nil {
		t.Errorf("a page loaded after the link still shows the code: %+v", c.Card)
	}
	w.wa.Say(ada, ada, "are you there?")
	w.momSays(ada, "Linked and listening.")
	apptest.Eventually(t, "/readyz to say ready", func() bool {
		resp, _ := b.Request("GET", "/readyz", "", nil, nil)
		return resp.StatusCode == http.StatusOK
	})
}

// card is the card the web chat's default channel shows to a page loaded now, or nil.
func (w *waWorld) card(b *fakeweb.Browser) *fakeweb.Frame {
	w.t.Helper()
	resp, body := b.Request("GET", "/api/channels/general/messages", b.Token(), nil, nil)
	var h struct{ Frames []fakeweb.Frame }
	if err := json.Unmarshal([]byte(body), &h); err != nil || resp.StatusCode != http.StatusOK {
		w.t.Fatalf("the history: %d %v\n%s", resp.StatusCode, err, body)
	}
	var found *fakeweb.Frame
	for _, f := range h.Frames {
		if f.Type == "card" {
			if found != nil {
				w.t.Errorf("two cards: %s and %s", found.ID, f.ID)
			}
			found = &f
		}
	}
	return found
}

// cardShowing waits until a page loaded shows a card with code's QR code, and returns its id.
func (w *waWorld) cardShowing(b *fakeweb.Browser, code string) string {
	w.t.Helper()
	var id string
	apptest.Eventually(w.t, "the web chat to show the code", func() bool {
		if c := w.card(b); c != nil && c.Card != nil && shows(w.t, c.Card.Image, code) {
			id = c.ID
			if !strings.Contains(c.Card.Title, "Link WhatsApp") || !strings.Contains(c.Card.Text, "Linked devices") {
				w.t.Errorf("the card says %q: %q; want how to scan it", c.Card.Title, c.Card.Text)
			}
			return true
		}
		return false
	})
	return id
}

// shows reports whether img, a data: URL of a PNG image, is the QR code of code, as a phone
// would read it: module by module, dark where the code's modules are dark.
func shows(t *testing.T, img, code string) bool {
	t.Helper()
	data, ok := strings.CutPrefix(img, "data:image/png;base64,")
	if !ok {
		t.Errorf("the card's image is not a PNG data: URL: %.40q", img)
		return false
	}
	raw, err := base64.StdEncoding.DecodeString(data)
	if err != nil {
		t.Errorf("the card's image: %v", err)
		return false
	}
	pic, err := png.Decode(bytes.NewReader(raw))
	if err != nil {
		t.Errorf("the card's image is no PNG: %v", err)
		return false
	}
	q, err := qrcode.New(code, qrcode.Low)
	if err != nil {
		t.Fatal(err)
	}
	bits := q.Bitmap() // dark modules, the quiet zone included
	size := pic.Bounds().Dx()
	if pic.Bounds().Dy() != size || size%len(bits) != 0 {
		return false
	}
	module := size / len(bits)
	for y, row := range bits {
		for x, dark := range row {
			if isDark(pic, x*module+module/2, y*module+module/2) != dark {
				return false
			}
		}
	}
	return true
}

// isDark reports whether the pixel at x, y is closer to black than to white.
func isDark(pic image.Image, x, y int) bool {
	r, g, b, _ := pic.At(pic.Bounds().Min.X+x, pic.Bounds().Min.Y+y).RGBA()
	return r+g+b < 3*0x8000
}
