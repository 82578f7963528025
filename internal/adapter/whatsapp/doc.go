//go:build !nowhatsapp

// Package whatsapp is mom on WhatsApp: a linked device (like WhatsApp Web) of a phone number,
// through go.mau.fi/whatsmeow, whose device keys live in <data-dir>/whatsapp/<adapter>.db,
// outside the workspace. A 1:1 chat is a DM; in a group a mention of mom's number, a reply to
// one of its messages or the configured prefix starts a run; everything else is logged as
// context. Replies are drawn by the shared renderer in WhatsApp's markup (Markup): a status
// message edited into the answer while WhatsApp allows edits (15 minutes; later updates go as
// new messages), the answer quoting the message that asked in groups, "typing…" and read
// receipts while mom works, and with "verbosity": "normal" a one-message digest of the tool
// calls and usage after the answer.
//
// Reliability rests on whatsmeow's SynchronousAck: the event handler returns only once a
// message is in log.jsonl, so WhatsApp delivers again whatever mom did not log (intake's Gate
// and the hub drop what was logged already); what was sent while mom was away arrives after it
// connects, is logged in order, and is not run. A device that is not linked, or was logged out
// from the phone, leaves the adapter not connected (in /readyz) without stopping mom.
//
// The adapter uses whatsmeow only through Client, so the tests run it, and the whole of mom,
// on the in-process fake of internal/fake/whatsapp.
//
// whatsmeow is MPL-2.0 and pulls in go.mau.fi/libsignal, which is GPL-3.0: a mom built with
// this package is, as a whole, distributed under the GPL-3.0. `go build -tags nowhatsapp`
// leaves it out.
package whatsapp
