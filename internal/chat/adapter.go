package chat

import (
	"context"
	"io"
)

// Adapter connects mom to one platform account (the spec's PlatformAdapter). It turns platform
// events into Messages for the Inbox and carries replies back. Every method must be safe to call
// from several goroutines.
type Adapter interface {
	// Name is the adapter's key in config.json ("slack-acme"); it names the channel
	// directories (channels/<name>/<channelId>/).
	Name() string
	// Start connects to the platform and returns once connected, or with the reason it could
	// not. From then on, messages go to in until ctx ends or Stop is called.
	Start(ctx context.Context, in Inbox) error
	// Stop disconnects and waits for the adapter's goroutines to finish.
	Stop(ctx context.Context) error
	// Channels returns the conversations the bot is part of, as currently known.
	Channels() []Channel
	// Users returns the people the bot knows, as currently known.
	Users() []User
	// Caps says what the platform can do, so shared rendering can fit it.
	Caps() Caps

	// Post sends a new message and returns its platform id.
	Post(ctx context.Context, channelID string, out Outgoing) (messageID string, err error)
	// Update replaces the text of a message the bot posted earlier.
	Update(ctx context.Context, channelID, messageID, text string) error
	// Delete removes a message the bot posted earlier.
	Delete(ctx context.Context, channelID, messageID string) error
	// Upload sends a file from the host's disk to the channel.
	Upload(ctx context.Context, channelID string, f File) error
}

// Outgoing is a message the bot sends.
type Outgoing struct {
	// Text is standard markdown; the adapter converts it to the platform's format.
	Text string
	// ThreadOf, when set, posts the message in the thread of that message.
	ThreadOf string
}

// File is a file the bot uploads.
type File struct {
	// Name is the file's name, as the chat shows it.
	Name string
	// Content holds the file's Size bytes. The attach tool opened the file where it checked
	// it, and adapters read it only from here, never again by path, so a command cannot swap
	// a link in between the check and the upload. Read it through io.NewSectionReader, so a
	// retried upload starts again at the beginning.
	Content io.ReaderAt
	Size    int64
	// Path is where the file is on the host, for showing (the terminal prints it); it is
	// never opened.
	Path string
	// Title is shown instead of the file's name where the platform supports it.
	Title string
	// ThreadOf, when set, uploads into the thread of that message.
	ThreadOf string
}

// Caps describes what a platform supports.
type Caps struct {
	// MaxText is the longest text one message may hold, in characters (0: no limit).
	MaxText int
	// Edit and Delete say whether the bot can change or remove its own messages.
	Edit, Delete bool
	// Threads says whether replies can be grouped under a message.
	Threads bool
}

// Inbox receives what adapters hear. The hub implements it.
type Inbox interface {
	// Receive logs m to the history of channel m.ChannelID of the named adapter and acts on it
	// (access control, triggers, stop). It returns once m is written to log.jsonl, so an
	// adapter acknowledges the platform's event only after it returns nil; an error means the
	// message could not be stored and the platform should deliver it again.
	Receive(ctx context.Context, adapter string, m Message) error
}
