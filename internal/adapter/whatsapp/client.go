//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/proto/waE2E"
	"go.mau.fi/whatsmeow/types"
)

// Client is what the adapter uses of a WhatsApp connection: exactly the methods of whatsmeow's
// client that it calls, and nothing else. There is no loopback WhatsApp server to test against
// (whatsmeow checks the server's key, which is built into the library), so the tests put
// internal/fake/whatsapp in its place: it emits whatsmeow's own event structs and records what
// mom sends as the real protos. In the binary it is a *whatsmeow.Client on the linked device's
// store (see device.go).
type Client interface {
	// Connect opens the connection; events arrive at the handlers added with
	// AddEventHandlerWithSuccessStatus, one at a time. With SynchronousAck on, a message is
	// acknowledged to WhatsApp only when every handler has returned true, so a handler
	// returns only once the message is logged, and returns false when it could not be: then
	// no acknowledgement goes out and WhatsApp delivers the message again.
	Connect() error
	// Disconnect closes the connection; it does not log the device out.
	Disconnect()
	// IsConnected reports whether the websocket is open.
	IsConnected() bool
	// IsLoggedIn reports whether the connection is authenticated as the linked device.
	IsLoggedIn() bool
	// AddEventHandlerWithSuccessStatus adds a handler for every event (*events.Message,
	// *events.Connected, ...). Its result says whether the event was handled: false for a
	// message holds back its acknowledgement (see Connect).
	AddEventHandlerWithSuccessStatus(handler whatsmeow.EventHandlerWithSuccessStatus) uint32

	// SendMessage sends msg to a chat and returns the id WhatsApp gave it.
	SendMessage(ctx context.Context, to types.JID, msg *waE2E.Message, extra ...whatsmeow.SendRequestExtra) (whatsmeow.SendResponse, error)
	// BuildEdit wraps newContent as an edit of the message id that mom sent to chat.
	BuildEdit(chat types.JID, id types.MessageID, newContent *waE2E.Message) *waE2E.Message
	// BuildRevoke wraps a deletion "for everyone" of the message id that sender sent to chat.
	BuildRevoke(chat, sender types.JID, id types.MessageID) *waE2E.Message
	// Upload encrypts and uploads a file to WhatsApp's media servers, for a message to refer to.
	Upload(ctx context.Context, plaintext []byte, mediaType whatsmeow.MediaType) (whatsmeow.UploadResponse, error)
	// Download fetches and decrypts the media of an image, document, audio, video or sticker
	// message.
	Download(ctx context.Context, msg whatsmeow.DownloadableMessage) ([]byte, error)

	// SendChatPresence shows "typing…" in a chat (types.ChatPresenceComposing) or stops it.
	SendChatPresence(ctx context.Context, jid types.JID, state types.ChatPresence, media types.ChatPresenceMedia) error
	// MarkRead sends read receipts for messages of sender in chat.
	MarkRead(ctx context.Context, ids []types.MessageID, timestamp time.Time, chat, sender types.JID, receiptTypeExtra ...types.ReceiptType) error
	// GetGroupInfo returns a group's name and participants.
	GetGroupInfo(ctx context.Context, jid types.JID) (*types.GroupInfo, error)

	// GetQRChannel, called before Connect on a device that is not linked, returns the
	// channel the QR codes to link it come on (whatsmeow renews them until it gives up), and
	// then how linking ended: QRChannelSuccess, once a phone scanned one; events.PairSuccess
	// reaches the handlers too, and the client connects anew as the linked device.
	GetQRChannel(ctx context.Context) (<-chan whatsmeow.QRChannelItem, error)

	// Self is the linked device's own JID (the phone number mom answers as) and push name;
	// ok is false while the device is not linked.
	Self() (jid types.JID, pushName string, ok bool)
	// Contact is what the linked phone's address book and push names say of a person.
	Contact(ctx context.Context, jid types.JID) (types.ContactInfo, error)
}
