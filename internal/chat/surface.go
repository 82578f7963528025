package chat

import (
	"context"
	"io"
	"time"
)

// Surface is an adapter's raw outbound side: messages already in the platform's markup and cut
// to its limit (render does both, with the adapter's Dialect), placed in a channel or a
// thread, and files. render draws a run's reply and posts the hub's notices through it, so an
// adapter writes each platform call once and never converts markdown itself. Implementations
// retry rate-limited calls themselves; every method must be safe to call from several
// goroutines.
type Surface interface {
	// Post sends one message to at and returns its platform id.
	Post(ctx context.Context, at Place, text string) (id string, err error)
	// Edit replaces the text of a message the bot posted; at is where it was posted.
	Edit(ctx context.Context, at Place, id, text string) error
	// Delete removes a message the bot posted; at is where it was posted.
	Delete(ctx context.Context, at Place, id string) error
	// Upload sends a file from the host to at.
	Upload(ctx context.Context, at Place, f File) error
}

// Place is where a message goes, or went: a channel, and in it the thread of one message.
type Place struct {
	// ChannelID is the platform's channel id, as in Message.ChannelID.
	ChannelID string
	// ThreadOf is the id of the message whose thread the message is in (InThreads), or which
	// it answers (ReplyChains); "" for the top level of the channel.
	ThreadOf string
	// Topic says what the conversation is about (the request a run answers), for a platform
	// that names a thread it starts; "" when there is nothing to tell.
	Topic string
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
}

// Dialect is how an adapter writes on its platform, stated once: how markdown becomes its
// markup, how long a message may be and how to cut a longer one, whether and how often the bot
// may edit, and how replies are grouped. render reads it to draw runs and post notices on the
// adapter's Surface. The zero Dialect writes markdown as it is, in one message of any length,
// never edited, without threads.
type Dialect struct {
	// Format turns the model's markdown into the platform's markup, @username of known people
	// into mentions; nil leaves it as it is.
	Format func(md string) string
	// Split cuts formatted text into messages of at most max characters; nil means
	// render.Split, which knows code fences. A markup with tags (HTML) needs one that
	// keeps them whole.
	Split func(text string, max int) []string
	// MaxText is the longest message the platform takes, in characters; 0 means no limit.
	MaxText int
	// Edit and Delete say whether the bot can change or remove its own messages.
	Edit, Delete bool
	// Threads says how the platform groups replies under a message.
	Threads Threads
	// EditEvery is the least time between two edits of a run's status message; edits in
	// between are merged, so a chatty run stays inside the platform's rate limits.
	EditEvery time.Duration
	// TypingEvery is how often a run renews the typing indicator, on a Surface that can show
	// one (render.Typist): a little less than the platform shows it for.
	TypingEvery time.Duration
	// Verbosity and ReplyIn are the adapter's settings for runs, in config.json's words (read
	// as render.Verbosity and render.ReplyIn): how much of a run people see ("quiet",
	// "normal", "verbose"; "" is normal), and where a mention inside a thread is answered
	// ("thread", "channel"; "" is thread).
	Verbosity, ReplyIn string
}

// Threads says how a platform groups replies under a message.
type Threads int

// The ways of grouping replies.
const (
	// NoThreads: every message stands at the top level of its channel.
	NoThreads Threads = iota
	// InThreads: any message can have a thread under it. A run's details go
	// into the thread under its answer, and a mention made inside a thread is answered there.
	InThreads
	// ReplyChains: a message can answer another. In a group a run's answer answers
	// the message that asked, and its details answer the answer.
	ReplyChains
	// Quotes: a message can quote another, but nothing hangs under it, so everything but the
	// quote follows in the channel. In a group a run's answer quotes the message that asked;
	// the rest of a long answer follows below it, and the run's details come after it as one
	// short digest (a line per tool call and the usage), since a post per tool call would
	// bury the conversation.
	Quotes
)
