package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"

	"github.com/mom-agent/mom/internal/adapter/slack"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/store"
)

// cmdSlackManifest is `mom slack-manifest [--name mom]`: print the app manifest to paste into
// api.slack.com → Create New App → From a manifest.
func cmdSlackManifest(args []string, std stdio) error {
	fs := flag.NewFlagSet("mom slack-manifest", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	name := fs.String("name", "mom", "the app's and bot's name")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %v", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: mom slack-manifest takes no arguments besides --name, got %q", errUsage, fs.Arg(0))
	}
	m, err := slack.Manifest(*name)
	if err != nil {
		return err
	}
	_, err = io.WriteString(std.out, m)
	return err
}

// cmdDownload is `mom download <data-dir> <adapter>/<channel>`: print a channel's history as
// text. For Slack it is fetched from Slack, threads included (the original mom's --download);
// for other adapters it comes from the channel's log.jsonl.
func cmdDownload(ctx context.Context, args []string, std stdio) error {
	cc, err := parseChannelCommand("download", args, "slack-acme/C0123456789")
	if err != nil {
		return err
	}
	dir, target, adapterName, channel, cfg := cc.dir, cc.target, cc.adapter, cc.channel, cc.cfg
	var ac *config.Adapter
	for i := range cfg.Adapters {
		if cfg.Adapters[i].Name == adapterName {
			ac = &cfg.Adapters[i]
		}
	}
	if ac != nil && ac.Type == "slack" {
		a := slack.New(slack.Options{Name: ac.Name, Config: *ac.Slack})
		return a.Download(ctx, channel, std.out, std.err)
	}
	st, err := store.Open(dir)
	if err != nil {
		return err
	}
	defer st.Close()
	ch, err := storedChannel(st, dir, target)
	if err != nil {
		return err
	}
	n := 0
	err = ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		indent := ""
		if m.ReplyTo != "" {
			indent = "  "
		}
		n++
		_, err := io.WriteString(std.out, chat.TranscriptLine(m.TS, m.Sender.Username, m.Text, indent))
		return err
	})
	if err == nil && n == 0 {
		err = errors.New("channel " + target + " has no history in " + dir)
	}
	return err
}
