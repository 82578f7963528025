// Package tools holds the tools the model can call — bash, read, write, edit and attach — and
// the output truncation they share. Every tool acts through a sandbox.Executor, so where it
// runs is decided once, by configuration.
package tools

import (
	"context"
	"encoding/json"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/sandbox"
)

// Tool is something the model can call.
type Tool interface {
	// Def is the tool's name, description and JSON Schema, as the model sees them. Every
	// built-in tool requires a "label" argument: a few words shown to people while it runs.
	Def() llm.Tool
	// Run executes one call with arguments already validated against Def().Parameters.
	// A returned error becomes an error result the model reads (never a crash); ctx ends when
	// the run is aborted.
	Run(ctx context.Context, env *Env, args json.RawMessage) (Result, error)
}

// Result is what a tool call produced.
type Result struct {
	// Content is what the model sees: text, and images where the tool read one.
	Content []llm.Content
	// Details is extra data for people and logs (a diff, truncation figures), not sent to the
	// model. Stored as the tool result's "details" in context.jsonl.
	Details any
}

// Env is what tools may use during one run in one channel.
type Env struct {
	// Exec runs commands and file operations.
	Exec sandbox.Executor
	// Cwd is the working directory for commands and relative paths, as the sandbox sees it:
	// the channel's scratch/ directory.
	Cwd string
	// Scratch is the same directory on the host, where full outputs of truncated commands
	// are saved; the zero Dir saves none.
	Scratch confined.Dir
	// Channel is the channel of the run, as adapter/channel ("team/C123"); custom tools
	// receive it as MOM_CHANNEL.
	Channel string
	// Upload sends a file to the channel of the current run, and only there.
	Upload func(ctx context.Context, f chat.File) error
	// Progress, when set, receives the partial output of a running tool (bash's tail), so
	// people can watch a long command. It may be called from another goroutine than Run's,
	// but never concurrently with itself and never after Run returns.
	Progress func(partial string)
}
