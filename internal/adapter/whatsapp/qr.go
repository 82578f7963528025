//go:build !nowhatsapp

package whatsapp

import (
	"encoding/base64"
	"fmt"
	"io"
	"strings"

	"github.com/skip2/go-qrcode"
)

// drawQR writes code as a QR code of text lines to w, for a phone to scan off a terminal.
//
// Each character is one module wide and two high (the upper and lower half blocks ▀ and ▄, a
// full block █, a space), so the code is about as tall as it is wide in a terminal's font.
// The light modules, the quiet zone of four around the code included, are the blocks, drawn
// in the terminal's text colour; the dark ones are spaces, the background. That is right for
// light text on a dark background, as most terminals have; phones read the code inverted
// too, and `mom whatsapp-link --phone` needs no code at all.
func drawQR(w io.Writer, code string) error {
	// Low error correction keeps the code small enough for an 80-column terminal: a screen
	// shows it without smudges, and WhatsApp's codes are some 240 characters long.
	q, err := qrcode.New(code, qrcode.Low)
	if err != nil {
		return fmt.Errorf("drawing the QR code: %w", err)
	}
	bits := q.Bitmap() // true is dark; it includes the quiet zone
	var b strings.Builder
	for y := 0; y < len(bits); y += 2 {
		for x := range bits[y] {
			// Below the last row is the terminal's background, like a dark module.
			lower := y+1 >= len(bits) || bits[y+1][x]
			b.WriteString(halfBlock(bits[y][x], lower))
		}
		b.WriteByte('\n')
	}
	_, err = io.WriteString(w, b.String())
	return err
}

// halfBlock is the character of an upper and a lower module, each true when dark.
func halfBlock(upperDark, lowerDark bool) string {
	switch {
	case upperDark && lowerDark:
		return " "
	case upperDark:
		return "▄"
	case lowerDark:
		return "▀"
	default:
		return "█"
	}
}

// qrModule is how many pixels wide one module of qrImage's code is: big enough for a phone to
// read off a screen, small enough for a phone's screen to show whole.
const qrModule = 6

// qrImage is code as a QR code in a PNG image, as a data: URL for the web chat to show. It
// has dark modules on white, with the quiet zone, as phones read best.
func qrImage(code string) (string, error) {
	q, err := qrcode.New(code, qrcode.Low)
	if err != nil {
		return "", fmt.Errorf("drawing the QR code: %w", err)
	}
	png, err := q.PNG(-qrModule) // a negative size is pixels per module
	if err != nil {
		return "", fmt.Errorf("drawing the QR code: %w", err)
	}
	return "data:image/png;base64," + base64.StdEncoding.EncodeToString(png), nil
}
