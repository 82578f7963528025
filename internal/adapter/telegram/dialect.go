package telegram

import (
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// Dialect is how mom writes in Telegram: HTML, up to MaxText in a message and cut with its
// tags whole, chains of replies for threads, "typing…", and the verbosity config.json chose.
func (a *Adapter) Dialect() chat.Dialect {
	return chat.Dialect{
		Format: a.html, Split: SplitHTML, MaxText: MaxText, Edit: true, Delete: true,
		Threads: chat.ReplyChains,
		// Well inside Telegram's limits: about one message a second per chat, twenty a minute
		// in groups.
		EditEvery: 1500 * time.Millisecond,
		// Telegram shows "typing…" for five seconds, or until the bot sends a message.
		TypingEvery: 4 * time.Second,
		Verbosity:   string(a.opts.Config.Verbosity),
	}
}

// html converts the model's markdown to Telegram HTML, with @username of people mom has
// heard from turned into mentions.
func (a *Adapter) html(md string) string { return HTML(md, a.dir.mention) }
