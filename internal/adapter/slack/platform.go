package slack

import (
	_ "embed"

	"context"
	"flag"
	"fmt"
	"io"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// Kind is Slack's "type" in config.json.
const Kind platform.Kind = "slack"

// templateText is Slack's part of the first-run config.json: a commented example of an
// adapter, after what to set up on Slack first.
//
//go:embed template.jsonc
var templateText string

// Platform is Slack as mom's registry of platforms knows it: its config entries, how its
// adapter is built, and `mom slack-manifest`.
func Platform() platform.Spec {
	return platform.Spec{
		Name:   "Slack",
		Config: configPlatform(),
		New: platform.Build(func(name string, c *Config, env platform.Env) (chat.Adapter, error) {
			return New(Options{Base: env.Base(name), Config: *c}), nil
		}),
		Commands: []platform.Command{manifestCommand()},
		Template: config.TemplatePart{Name: "Slack", Text: templateText},
	}
}

// manifestCommand is `mom slack-manifest [--name mom] [--command /mom]`: print the app
// manifest to paste into api.slack.com → Create New App → From a manifest.
func manifestCommand() platform.Command {
	return platform.Command{
		Name: "slack-manifest", Args: "[--name mom] [--command /mom]", Summary: "print the Slack app manifest mom needs",
		Run: func(_ context.Context, args []string, out io.Writer) error {
			fs := flag.NewFlagSet("mom slack-manifest", flag.ContinueOnError)
			fs.SetOutput(io.Discard)
			name := fs.String("name", "mom", "the app's and bot's name")
			command := fs.String("command", "", "the app's slash command (default: the name, as /helper-bot)")
			if err := fs.Parse(args); err != nil {
				return fmt.Errorf("%w: %v", platform.ErrUsage, err)
			}
			if fs.NArg() > 0 {
				return fmt.Errorf("%w: mom slack-manifest takes no arguments besides --name and --command, got %q", platform.ErrUsage, fs.Arg(0))
			}
			m, err := Manifest(*name, *command)
			if err != nil {
				return err
			}
			_, err = io.WriteString(out, m)
			return err
		},
	}
}
