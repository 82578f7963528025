package main

import (
	cliadapter "github.com/mom-agent/mom/internal/adapter/cli"
	slackadapter "github.com/mom-agent/mom/internal/adapter/slack"
	webadapter "github.com/mom-agent/mom/internal/adapter/web"
)

// The abilities of cmd/mom's own (abilities.go): what the commands need of particular
// adapters, which the app builds through the registry of platforms without knowing their
// types. The compiler checks each pairing here; internal/app checks the rest.
var (
	_ downloader  = (*slackadapter.Adapter)(nil)
	_ transcriber = (*webadapter.Adapter)(nil)
	_ keyboard    = (*cliadapter.Adapter)(nil)
	_ oneShot     = (*cliadapter.Adapter)(nil)
)
