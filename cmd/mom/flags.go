package main

import (
	"flag"
	"fmt"
	"github.com/mom-agent/mom/internal/adapter"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"regexp"
	"runtime/debug"
	"strings"

	"github.com/mom-agent/mom/internal/config"
)

// errUsage marks errors in how mom was called; they are printed with the usage text. It is
// the platforms' ErrUsage, so that their commands' usage errors are shown alike.
var errUsage = adapter.ErrUsage

// commonFlags are the flags every command that starts mom accepts.
type commonFlags struct {
	model    string
	sandbox  string
	logLevel string
}

func (c *commonFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&c.model, "model", "", "provider/id of the model")
	fs.StringVar(&c.sandbox, "sandbox", "", "host, docker:<container> or bwrap")
	fs.StringVar(&c.logLevel, "log-level", "", "debug, info, warn or error")
}

// longFlags finds a flag named in the flag package's errors ("flag needs an argument: -next"),
// so that a flag of more than one letter is named the way the usage writes it (--next); the
// flag package accepts both spellings.
var longFlags = regexp.MustCompile(`(^|: | flag )-([a-z][a-z-]+)`)

// parse parses flags that may come before or after the positional arguments ("mom ./data
// --model x" works like "mom --model x ./data") and returns the positional ones.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, fmt.Errorf("%w: %s", errUsage, longFlags.ReplaceAllString(err.Error(), "$1--$2"))
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		if args[0] == "--" {
			return append(pos, args[1:]...), nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

// parseCommand parses a command's arguments: the common flags, those extra registers, and the
// one data directory.
func parseCommand(name string, args []string, extra func(*flag.FlagSet)) (dir string, fl commonFlags, err error) {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fl.register(fs)
	if extra != nil {
		extra(fs)
	}
	pos, err := parse(fs, args)
	if err != nil {
		return "", fl, err
	}
	dir, err = dataDirArg(pos)
	return dir, fl, err
}

// channelCommand is what a command on one channel was given: `mom <name> <data-dir>
// <adapter>/<channel>` with the common flags, and the data directory's config.
type channelCommand struct {
	dir              string
	target           string // adapter/channel, as given
	adapter, channel string
	fl               commonFlags
	cfg              *config.Config
}

// parseChannelCommand parses the arguments of a command on one channel and reads the config;
// example shows what a channel looks like in the usage error. extra adds the command's own
// flags.
func parseChannelCommand(name string, args []string, example string, extra ...func(*flag.FlagSet)) (channelCommand, error) {
	var c channelCommand
	fs := flag.NewFlagSet("mom "+name, flag.ContinueOnError)
	c.fl.register(fs)
	for _, e := range extra {
		e(fs)
	}
	pos, err := parse(fs, args)
	if err != nil {
		return c, err
	}
	if len(pos) != 2 {
		return c, fmt.Errorf("%w: mom %s needs <data-dir> <adapter>/<channel>", errUsage, name)
	}
	c.dir, c.target = pos[0], pos[1]
	var ok bool
	c.adapter, c.channel, ok = strings.Cut(c.target, "/")
	if !ok || c.adapter == "" || c.channel == "" {
		return c, fmt.Errorf("%w: the channel must be adapter/channel, like %s", errUsage, example)
	}
	c.cfg, err = readConfig(filepath.Join(c.dir, config.FileName), c.fl)
	return c, err
}

// dataDirArg returns the one data directory argument.
func dataDirArg(pos []string) (string, error) {
	switch len(pos) {
	case 0:
		return "", fmt.Errorf("%w: the data directory is missing (e.g. mom ./data)", errUsage)
	case 1:
		return pos[0], nil
	}
	return "", fmt.Errorf("%w: one data directory expected, got %q", errUsage, strings.Join(pos, " "))
}

// newLogger returns the process's logger, writing text lines to w.
func newLogger(w io.Writer, level string, fallback slog.Level) (*slog.Logger, error) {
	lvl := fallback
	if level != "" {
		if err := lvl.UnmarshalText([]byte(level)); err != nil {
			return nil, fmt.Errorf("%w: --log-level must be debug, info, warn or error, not %q", errUsage, level)
		}
	}
	return slog.New(slog.NewTextHandler(w, &slog.HandlerOptions{Level: lvl})), nil
}

func versionString() string {
	if version != "" {
		return version
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" && info.Main.Version != "(devel)" {
		return info.Main.Version
	}
	return "dev"
}

// isTerminal reports whether f is a character device such as a terminal.
func isTerminal(f *os.File) bool {
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}
