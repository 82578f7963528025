package cli

import (
	"context"
	"fmt"
	"strconv"

	"github.com/mom-agent/mom/internal/chat"
)

// The terminal as the hub sees it: who is there, and where mom's notices (busy, stopping, …)
// and files go. Runs are drawn by reply and oneShot, not here.

// Directory returns the person at the terminal and its one conversation.
func (a *Adapter) Directory() chat.Directory {
	return chat.Directory{Users: []chat.User{a.opts.User},
		Channels: []chat.Channel{{ID: a.opts.Channel, Name: "terminal", Kind: chat.KindDM}}}
}

// Bot returns mom's identity in the terminal.
func (a *Adapter) Bot() chat.User { return chat.User{ID: "mom", Username: "mom", IsBot: true} }

// Surface is the terminal: the adapter itself.
func (a *Adapter) Surface() chat.Surface { return a }

// Dialect is how mom writes in the terminal: markdown as it is, any length, never edited.
func (a *Adapter) Dialect() chat.Dialect { return chat.Dialect{} }

// Post prints a notice from mom (busy, stopping, ...).
func (a *Adapter) Post(ctx context.Context, at chat.Place, text string) (string, error) {
	a.notes().line(dim, text)
	return strconv.FormatInt(a.seq.Add(1), 10), nil
}

// Edit prints the new text: a terminal cannot change what it printed.
func (a *Adapter) Edit(ctx context.Context, at chat.Place, messageID, text string) error {
	a.out.line(plain, text)
	return nil
}

// Delete does nothing: a terminal cannot take back what it printed.
func (a *Adapter) Delete(ctx context.Context, at chat.Place, messageID string) error { return nil }

// Upload shows where the attached file is; the person at the terminal can open it there.
func (a *Adapter) Upload(ctx context.Context, at chat.Place, f chat.File) error {
	title := ""
	if f.Title != "" {
		title = " (" + f.Title + ")"
	}
	a.notes().line(dim, fmt.Sprintf("attached file: %s%s", f.Path, title))
	return nil
}

// notes is where notices and files are shown: with the conversation, or, in one-shot mode,
// with the progress, so that the answer alone goes to the output.
func (a *Adapter) notes() *writer {
	if a.opts.OneShot {
		return &writer{w: a.opts.Progress}
	}
	return a.out
}
