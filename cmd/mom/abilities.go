package main

import (
	"context"
	"io"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/store"
)

// What the app needs of particular adapters, beyond chat.Adapter, it finds by type assertion:
// the adapters are built through the registry of platforms (package adapter), and the app
// knows none of their types. abilities_test.go checks at compile time which adapter has which.

// downloader is the ability of an adapter that can fetch a channel's whole history from its
// platform, threads included, as the original mom's --download did. `mom download` uses it
// when the channel's adapter has it, and prints the channel's log.jsonl otherwise.
type downloader interface {
	// Download writes the history of channelID to w as plain text, oldest first, and its
	// progress to progress.
	Download(ctx context.Context, channelID string, w, progress io.Writer) error
}

// transcriber is the ability of an adapter that keeps more of a channel's history than
// log.jsonl (the web chat: how each answer came about): `mom download` prints its transcript
// rather than the log's lines.
type transcriber interface {
	// Transcript writes the history of ch to w as plain text, oldest first.
	Transcript(ch *store.ChannelDir, w io.Writer) error
}

// keyboard is the ability of the chat at this process's keyboard (the terminal): cmdServe's
// wait loop quits when its input ends, and the first Ctrl-C stops the run in its conversation
// instead of quitting.
type keyboard interface {
	chat.Adapter
	// Done is closed when the input has ended (Ctrl-D, or the end of piped input).
	Done() <-chan struct{}
	// Heard reports whether a message was read, which tells an input that was empty from
	// the start (a service's /dev/null) from the end of messages typed or piped in.
	Heard() bool
	// Conversation is the id of the one channel it talks in.
	Conversation() string
}

// oneShot is the ability of the adapter `mom run` answers one prompt through (the platform's
// OneShot builds it): it says when the prompt was read, and how the run ended, which sets
// mom run's exit status.
type oneShot interface {
	// Done is closed when the prompt has been read and handed over.
	Done() <-chan struct{}
	// Outcome is how the last run ended; "" when none has.
	Outcome() llm.StopReason
}
