//go:build !nowhatsapp

// Package fakewhatsapp is an in-process WhatsApp for tests: the other end of mom's linked
// device, as the WhatsApp adapter's Client interface sees it. There is no loopback server to
// write instead (whatsmeow checks the server's key, which is built into the library), so the
// fake stands where *whatsmeow.Client stands, and speaks whatsmeow's own types: it emits the
// real event structs (events.Message with waE2E protos — Conversation, ExtendedTextMessage
// with ContextInfo for mentions and quotes, ImageMessage, DocumentMessage, AudioMessage,
// VideoMessage, StickerMessage —, events.Connected, Disconnected, LoggedOut,
// KeepAliveTimeout, KeepAliveRestored, OfflineSyncCompleted), unwrapped as whatsmeow
// unwraps them, and takes what mom sends as the real protos, built by the same BuildEdit and
// BuildRevoke. It satisfies the adapter's interface structurally and does not import the
// adapter; the adapter's tests check that it fits.
//
// What WhatsApp's server does, the fake does:
//
//   - Delivery and acknowledgement: a message is delivered to the connected device's event
//     handlers, one event at a time, and is acknowledged only when every handler returned
//     true while the connection was still open (whatsmeow's SynchronousAck). A message not
//     acknowledged — its handler returned false, the connection closed first, or the device
//     was not connected when it was sent — is delivered again, in order, after the next
//     Connect, following events.Connected, as WhatsApp's offline delivery does. DropAcks
//     makes acknowledgements get lost (a crash between logging and acknowledging).
//   - Connection: Drop cuts the connection (events.Disconnected); KeepAliveTimeout and
//     KeepAliveRestored play a connection that stays open but silent. RemoveDevice plays the
//     phone removing the linked device: the connection gets events.LoggedOut and the device
//     is unlinked. Unlinked starts the world without a linked device.
//   - Linking (link.go): GetQRChannel before Connect on an unlinked device gets the codes
//     WhatsApp's server gives, one at a time on whatsmeow's own QRChannelItem, the first good
//     for 60 seconds, the next five for 20; RenewQR plays a code expiring (after the last,
//     the channel says QRChannelTimeout and the connection ends), and ScanQR plays the
//     phone scanning the code shown: events.PairSuccess, QRChannelSuccess, and the device
//     connects anew, linked.
//   - Edits: only of mom's own messages, only text, and only for 15 minutes after sending, by
//     the fake's clock (Advance moves it); revocations only of mom's own messages. Edits and
//     revocations change what people see (Messages, Shown).
//   - Media: Download returns the bytes a person sent (WithImage, WithDocument, ...) after
//     checking the message's media key and hashes, or the error FailingDownload set; a
//     message mom sends with media must name an upload of the same bytes and kind (Upload).
//   - Read receipts (MarkRead) only for messages of the chat, of the sender named, not mom's
//     own; chat presence ("typing…") is recorded (Presences).
//
// Every broken rule is recorded (Violations), as the other fakes do, and tests fail on any.
// NewCast starts a world with mom's number linked, two people, a group and a group that
// hides numbers.
package fakewhatsapp
