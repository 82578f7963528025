package discord

import (
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/render"
)

// Dialect is how mom writes in Discord: its markdown, up to MaxText in a message, threads
// under any message in a server (a reply below it in DMs), the typing indicator, and the
// placement and verbosity config.json chose.
func (a *Adapter) Dialect() chat.Dialect {
	return chat.Dialect{
		Format: a.format, MaxText: MaxText, Edit: true, Delete: true, Threads: chat.InThreads,
		// Within Discord's limit of five message edits per five seconds in a channel.
		EditEvery: 1200 * time.Millisecond,
		// Discord shows the indicator for ten seconds.
		TypingEvery: 8 * time.Second,
		Verbosity:   string(a.opts.Config.Verbosity), ReplyIn: string(a.opts.Config.ReplyIn),
	}
}

// format converts the model's markdown to Discord's, with @username of known people turned
// into real mentions.
func (a *Adapter) format(md string) string {
	return Markdown(md, render.IDMention(a.dir.byUsername))
}

// threadName names a thread mom starts after the request it answers (chat.Place.Topic), as
// people would name it.
func threadName(text string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
	if r := []rune(line); len(r) > 80 {
		line = string(r[:80]) + "…"
	}
	if line == "" {
		return "Details"
	}
	return line
}
