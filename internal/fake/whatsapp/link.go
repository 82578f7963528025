//go:build !nowhatsapp

package fakewhatsapp

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/types/events"
)

// Linking, as whatsmeow and WhatsApp's server do it: GetQRChannel before Connect on a device
// that is not linked; Connect then gets a handful of codes from the server (events.QR), and
// the channel hands them out one at a time, the first good for 60 seconds, the others for 20;
// after the last, the channel says QRChannelTimeout and the client disconnects. When a phone
// scans the code shown, the device is linked: events.PairSuccess, QRChannelSuccess, and the
// server has the client connect anew (its stream error 515), now as the linked device.

// qrCodes is how many codes WhatsApp's server gives for one connection.
const qrCodes = 6

// pairing is a device connected unlinked, showing codes.
type pairing struct {
	c     *Client
	out   chan whatsmeow.QRChannelItem
	codes []string
	shown int // how many codes were handed out
}

// GetQRChannel returns the channel the codes to link the device come on. Call it before
// Connect, on a device that is not linked.
func (c *Client) GetQRChannel(ctx context.Context) (<-chan whatsmeow.QRChannelItem, error) {
	s := c.s
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case c.conn != 0:
		return nil, whatsmeow.ErrQRAlreadyConnected
	case s.keys:
		return nil, whatsmeow.ErrQRStoreContainsID
	}
	c.qr = make(chan whatsmeow.QRChannelItem, 8)
	return c.qr, nil
}

// pairLocked starts showing codes on c, connected unlinked; s.mu is held.
func (s *Server) pairLocked(c *Client) {
	s.conns++
	c.conn = s.conns
	p := &pairing{c: c, out: c.qr}
	c.qr = nil
	for range qrCodes {
		p.codes = append(p.codes, qrCode())
	}
	s.pairing = p
	go c.dispatch(&events.QR{Codes: append([]string(nil), p.codes...)})
	s.nextCodeLocked()
}

// nextCodeLocked hands out the next code, or, after the last, ends the pairing connection as
// whatsmeow does; s.mu is held.
func (s *Server) nextCodeLocked() {
	p := s.pairing
	if p.shown == len(p.codes) {
		p.out <- whatsmeow.QRChannelTimeout
		close(p.out)
		s.endPairingLocked()
		return
	}
	timeout := 20 * time.Second
	if p.shown == 0 {
		timeout = 60 * time.Second
	}
	select {
	case p.out <- whatsmeow.QRChannelItem{Event: whatsmeow.QRChannelEventCode, Code: p.codes[p.shown], Timeout: timeout}:
		p.shown++
	default:
		// Nobody reads the codes: whatsmeow closes the channel and disconnects.
		close(p.out)
		s.endPairingLocked()
	}
}

// endPairingLocked closes the pairing connection; s.mu is held.
func (s *Server) endPairingLocked() {
	if s.pairing != nil {
		s.pairing.c.conn = 0
		s.pairing = nil
	}
	s.cond.Broadcast()
}

// RenewQR plays the shown code expiring: the device gets the next, or, after the last, the
// end of the pairing connection. It reports whether a device was showing codes.
func (s *Server) RenewQR() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pairing == nil {
		return false
	}
	s.nextCodeLocked()
	s.Notify()
	return true
}

// QRCode is the code the device shows now, as its QR code says it, or "" when it shows none.
func (s *Server) QRCode() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.pairing == nil || s.pairing.shown == 0 {
		return ""
	}
	return s.pairing.codes[s.pairing.shown-1]
}

// ScanQR plays mom's phone scanning code: when it is the code the device shows, the device is
// linked and connects anew as mom's number. It reports whether the phone took the code.
func (s *Server) ScanQR(code string) bool {
	s.mu.Lock()
	p := s.pairing
	if p == nil || p.shown == 0 || p.codes[p.shown-1] != code {
		s.mu.Unlock()
		return false
	}
	s.keys, s.known = true, true
	s.endPairingLocked()
	jid := s.mom.JID
	jid.Device = momDevice
	s.mu.Unlock()
	p.c.dispatch(&events.PairSuccess{ID: jid, LID: s.mom.LID, Platform: "android"})
	p.out <- whatsmeow.QRChannelSuccess
	close(p.out)
	go func() {
		if err := p.c.Connect(); err != nil {
			s.Violate("the device could not connect as the linked device: %v", err)
		}
	}()
	s.Notify()
	return true
}

// Pairing reports whether a device is connected unlinked, showing codes.
func (s *Server) Pairing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.pairing != nil
}

// qrCode is a code as whatsmeow makes it of the server's ref and the device's keys: the ref,
// then the noise key, the identity key and the secret, in base64, separated by commas.
func qrCode() string {
	part := func(n int) string {
		b := make([]byte, n)
		_, _ = rand.Read(b)
		return base64.StdEncoding.EncodeToString(b)
	}
	return "2@" + part(48) + "," + part(32) + "," + part(32) + "," + part(32)
}
