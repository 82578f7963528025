//go:build !nowhatsapp

// Package whatsapp is mom on WhatsApp: a linked device (like WhatsApp Web) of a phone number,
// through go.mau.fi/whatsmeow, whose device keys live in <data-dir>/whatsapp/<adapter>.db,
// outside the workspace. A 1:1 chat is a DM; in a group a mention of mom's number, a reply to
// one of its messages or the configured prefix starts a run.
//
// whatsmeow is MPL-2.0 and pulls in go.mau.fi/libsignal, which is GPL-3.0: a mom built with
// this package is, as a whole, distributed under the GPL-3.0. `go build -tags nowhatsapp`
// leaves it out.
package whatsapp
