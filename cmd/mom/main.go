// Command mom is a self-hosted LLM agent that lives in chat.
//
//	mom [--sandbox=host|docker:<container>|bwrap] [--model provider/id] <data-dir>
//	mom run [flags] <data-dir> -m "prompt" [-c adapter/channel]
//	mom check <data-dir>
//	mom events <data-dir> [--next N] [--from time]
//	mom download <data-dir> <adapter>/<channel>
//	mom compact <data-dir> <adapter>/<channel>
//	mom usage <data-dir> [--by channel|person|model|day] [--since 2026-11-01]
//	mom import <old-data-dir> <data-dir> --adapter <name> [--merge]
//	mom <platform command> ...
//	mom version
//
// The first form starts every adapter in <data-dir>/config.json (creating a commented config
// with the terminal adapter on first run) and runs until SIGINT or SIGTERM. Platforms add
// commands of their own (the registry in package adapter lists them); `mom help` shows them.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/visible"
)

// version is set at build time with -ldflags "-X main.version=v1.2.3"; otherwise the module
// version from the build info is shown.
var version = ""

// stdio is the process's standard streams, passed down so commands can be run from tests.
type stdio struct {
	in       io.Reader
	out, err io.Writer
	// inTTY and outTTY say whether stdin and stdout are terminals.
	inTTY, outTTY bool
}

func main() {
	tuneMemory()
	std := stdio{in: os.Stdin, out: os.Stdout, err: os.Stderr, inTTY: isTerminal(os.Stdin), outTTY: isTerminal(os.Stdout)}
	os.Exit(run(context.Background(), os.Args[1:], std))
}

// exitCode is an error that sets the process's exit status without printing anything more.
type exitCode int

func (e exitCode) Error() string { return fmt.Sprintf("exit status %d", int(e)) }

// run dispatches to a sub-command and turns its error into an exit status.
func run(ctx context.Context, args []string, std stdio) int {
	var err error
	cmd := ""
	if len(args) > 0 {
		cmd = args[0]
	}
	switch cmd {
	case "run":
		err = cmdRun(ctx, args[1:], std)
	case "check":
		err = cmdCheck(args[1:], std)
	case "events":
		err = cmdEvents(args[1:], std)
	case "download":
		err = cmdDownload(ctx, args[1:], std)
	case "compact":
		err = cmdCompact(ctx, args[1:], std)
	case "approvals":
		err = cmdApprovals(args[1:], std)
	case "usage":
		err = cmdUsage(args[1:], std)
	case "import":
		err = cmdImport(ctx, args[1:], std)
	case "version", "--version", "-version":
		fmt.Fprintln(std.out, "mom", versionString())
	case "help", "-h", "-help", "--help":
		fmt.Fprint(std.out, usage())
	default:
		if c, ok := platformCommand(cmd); ok {
			err = c.Run(ctx, args[1:], std.out)
		} else {
			err = cmdServe(ctx, args, std)
		}
	}
	var code exitCode
	switch {
	case err == nil:
		return 0
	case errors.As(err, &code):
		return int(code)
	case errors.Is(err, errUsage):
		fmt.Fprintf(std.err, "mom: %s\n\n%s", visible.Text(err.Error()), usage())
		return 2
	default:
		// Errors can name files and channels that commands in the sandbox made.
		fmt.Fprintf(std.err, "mom: %s\n", visible.Text(err.Error()))
		return 1
	}
}

// platformCommand returns the sub-command a platform added under name.
func platformCommand(name string) (adapter.Command, bool) {
	for _, c := range adapter.Builtin().Commands() {
		if c.Name == name {
			return c, true
		}
	}
	return adapter.Command{}, false
}

// usage is the help text: mom's own commands, those the platforms add, and the flags.
func usage() string {
	var b strings.Builder
	b.WriteString(usageCommands)
	for _, c := range adapter.Builtin().Commands() {
		fmt.Fprintf(&b, "  %-46s %s\n", strings.TrimSpace("mom "+c.Name+" "+c.Args), c.Summary)
	}
	b.WriteString(usageRest)
	return b.String()
}

const usageCommands = `Usage:
  mom [flags] <data-dir>                         start every adapter in <data-dir>/config.json
  mom run [flags] <data-dir> -m "prompt"         answer one prompt and print the answer
  mom check [flags] <data-dir>                   validate config.json and show what would start
  mom events <data-dir> [--next N] [--from t]    list scheduled events and their next times
  mom download <data-dir> <adapter>/<channel>    print a channel's history as text
  mom compact <data-dir> <adapter>/<channel>     summarize a channel's context now (mom stopped)
  mom approvals <data-dir> <adapter>/<channel>   list what is allowed always there [--remove key]
  mom usage <data-dir> [--by channel|person|model|day] [--since 2026-11-01]
                                                 what model calls cost (see Spending caps)
  mom import <old-dir> <data-dir> --adapter <name> [--merge]
                                                 bring a data directory of pi's original mom over
`

const usageRest = `  mom version                                    print the version

Flags:
  --model provider/id      use this model (e.g. anthropic/claude-sonnet-4-5, openai/gpt-4.1)
  --sandbox kind           where commands run: host, docker:<container> or bwrap
  --log-level level        debug, info, warn or error (default info; warn in the terminal)

Flags of mom run:
  -m prompt                the prompt ("-" reads it from stdin)
  -c adapter/channel       the conversation to continue (default run/local)

On first start mom creates <data-dir>/config.json with the terminal adapter enabled.
`
