// Package platform declares what a chat platform tells mom about itself: its kind, the name
// people know it by, how its entries in config.json are read and checked, how its adapter is
// built, and the sub-commands it adds to mom. Each platform's package fills one Spec; the
// registry in package adapter lists them, and no other part of mom names a platform.
//
// It sits below the platforms' packages, which import it to fill their Spec, and below the
// registry, which imports them.
package platform

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// Kind is a platform's name in config.json's "type" ("cli"), and so in mom check's
// summary and in error messages.
type Kind string

// Spec is everything mom needs to know about one platform.
type Spec struct {
	// Name is what the system prompt says mom lives in, as people know the platform
	// ("a terminal").
	Name string
	// Config reads and checks the platform's entries in config.json. Its Type is the
	// platform's Kind.
	Config config.Platform
	// New builds the adapter an entry of this platform describes, without connecting it:
	// Start does that. mom check builds every adapter to check its settings, with env.Store
	// nil.
	New func(entry config.AdapterEntry, env Env) (chat.Adapter, error)
	// OneShot, when set, builds the adapter `mom run` answers one prompt through: it reads
	// the prompt from env.Stdin as one message in channel, and prints only the answer on
	// env.Stdout. Only the terminal chat sets it.
	OneShot func(name, channel string, env Env) chat.Adapter
	// Commands are the sub-commands of mom the platform adds (one that prints what to set up
	// on the platform, say).
	Commands []Command
	// Template is the platform's part of the config.json mom writes on first run: an adapter
	// it starts, or a commented example of one with what to set up first (see
	// config.TemplatePart). Its Text is best embedded from template.jsonc in the platform's
	// package. The zero value leaves the platform out of the file.
	Template config.TemplatePart
}

// Kind is the platform's kind: its config entries' "type".
func (s Spec) Kind() Kind { return Kind(s.Config.Type) }

// Build makes a Spec.New from make, which builds an adapter from the platform's own settings
// of type T (what its Decode returned). An entry made in code without them is an error
// naming the adapter.
func Build[T config.Options](make func(name string, settings T, env Env) (chat.Adapter, error)) func(config.AdapterEntry, Env) (chat.Adapter, error) {
	return func(e config.AdapterEntry, env Env) (chat.Adapter, error) {
		c, ok := e.Options.(T)
		if !ok {
			return nil, fmt.Errorf("adapter %s: its entry has no %s settings", e.Name, e.Type)
		}
		return make(e.Name, c, env)
	}
}

// Env is what mom hands a platform's New besides the adapter's config entry.
type Env struct {
	// Store is the data directory: attachments, channel history, the web chat's token. It is
	// nil when mom builds the adapter only to check its settings (mom check) or to download
	// a channel's history from the platform (mom download).
	Store *store.Store
	// Log receives the adapter's connection news and failures; nil discards them.
	Log *slog.Logger
	// Stdin, Stdout and Stderr are mom's standard streams: the terminal chat talks on them,
	// and the web chat says on Stderr where to open it.
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Interactive says a person sits at a terminal on both Stdin and Stdout, for whom the
	// terminal chat shows a prompt and colours.
	Interactive bool
	// LocalUser is the person at this machine, as the terminal chat shows them.
	LocalUser chat.User
	// AskIn is where `mom run` reads the answers to its requests for approval: the terminal
	// on standard input when the prompt came from -m; nil when nobody can be asked.
	AskIn io.Reader
	// Adapters are the names of every configured adapter, sorted; the web chat reads the
	// scheduled events of them all.
	Adapters []string
}

// Command is a sub-command of mom that a platform adds, like one that prints what to set up
// on the platform. mom's usage lists it as "mom <Name> <Args>   <Summary>".
type Command struct {
	// Name is the word after mom.
	Name string
	// Args is how its arguments are written in the usage: "[--name mom]".
	Args string
	// Summary says what it does, in a few words.
	Summary string
	// Run runs the command with the arguments after its name and writes its output to out.
	// An error that wraps ErrUsage is shown with mom's usage, and mom exits 2.
	Run func(ctx context.Context, args []string, out io.Writer) error
}

// ErrUsage marks errors in how mom was called; they are printed with the usage text.
var ErrUsage = errors.New("usage")
