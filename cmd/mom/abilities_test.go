package main

import (
	cliadapter "github.com/mom-agent/mom/internal/adapter/cli"
	discordadapter "github.com/mom-agent/mom/internal/adapter/discord"
	slackadapter "github.com/mom-agent/mom/internal/adapter/slack"
	tgadapter "github.com/mom-agent/mom/internal/adapter/telegram"
	webadapter "github.com/mom-agent/mom/internal/adapter/web"
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/hub"
)

// The hub and the agent find what an adapter can do by type assertion. The adapters sit below
// them and do not import the interfaces they implement, so a method whose signature drifted
// would turn an ability off without a word (no group checks, no user isolation); the compiler
// checks each pairing here, where the adapters are wired to the hub.
var (
	_ hub.Replier = (*slackadapter.Adapter)(nil)
	_ hub.Replier = (*discordadapter.Adapter)(nil)
	_ hub.Replier = (*tgadapter.Adapter)(nil)
	_ hub.Replier = (*cliadapter.Adapter)(nil)
	_ hub.Replier = (*webadapter.Adapter)(nil)

	_ hub.BotUser = (*slackadapter.Adapter)(nil)
	_ hub.BotUser = (*discordadapter.Adapter)(nil)
	_ hub.BotUser = (*tgadapter.Adapter)(nil)
	_ hub.BotUser = (*cliadapter.Adapter)(nil)
	_ hub.BotUser = (*webadapter.Adapter)(nil)

	_ hub.Groups = (*slackadapter.Adapter)(nil)
	_ hub.Groups = (*discordadapter.Adapter)(nil)
	_ hub.Groups = (*tgadapter.Adapter)(nil)

	_ hub.Leaver = (*discordadapter.Adapter)(nil)
	_ hub.Leaver = (*tgadapter.Adapter)(nil)

	_ agent.Membership = (*slackadapter.Adapter)(nil)
	_ agent.Membership = (*discordadapter.Adapter)(nil)
	_ agent.Membership = (*tgadapter.Adapter)(nil)
	_ agent.Membership = (*cliadapter.Adapter)(nil)
	_ agent.Membership = (*webadapter.Adapter)(nil)
)

// The app's own abilities (abilities.go and ready.go): what it needs of particular adapters,
// which it builds through the registry of platforms without knowing their types.
var (
	_ downloader   = (*slackadapter.Adapter)(nil)
	_ keyboard     = (*cliadapter.Adapter)(nil)
	_ oneShot      = (*cliadapter.Adapter)(nil)
	_ healthServer = (*webadapter.Adapter)(nil)
)
