package app

import (
	cliadapter "github.com/mom-agent/mom/internal/adapter/cli"
	discordadapter "github.com/mom-agent/mom/internal/adapter/discord"
	slackadapter "github.com/mom-agent/mom/internal/adapter/slack"
	tgadapter "github.com/mom-agent/mom/internal/adapter/telegram"
	webadapter "github.com/mom-agent/mom/internal/adapter/web"
	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/health"
	"github.com/mom-agent/mom/internal/hub"
	"github.com/mom-agent/mom/internal/render"
)

// The hub, the agent, the renderer and the health checks find what an adapter can do beyond
// chat.Adapter by type assertion. The adapters sit below them and do not import the interfaces
// they implement, so a method whose signature drifted would turn an ability off without a word
// (no group checks, no user isolation, no typing indicator); the compiler checks each pairing
// here, where the adapters are wired to the hub.
// cmd/mom/abilities_test.go checks those of the commands.
var (
	_ chat.Adapter = (*slackadapter.Adapter)(nil)
	_ chat.Adapter = (*discordadapter.Adapter)(nil)
	_ chat.Adapter = (*tgadapter.Adapter)(nil)
	_ chat.Adapter = (*cliadapter.Adapter)(nil)
	_ chat.Adapter = (*webadapter.Adapter)(nil)

	_ hub.Replier = (*cliadapter.Adapter)(nil)
	_ hub.Replier = (*webadapter.Adapter)(nil)
	// The web chat's busy notice points to its Stop button.
	_ hub.StopButton = (*webadapter.Adapter)(nil)

	// A status message a restart left unnamed in the run journal is found where the bot
	// can read its messages back.
	_ hub.PostFinder = (*slackadapter.Adapter)(nil)
	_ hub.PostFinder = (*discordadapter.Adapter)(nil)

	_ render.Typist = (*discordadapter.Adapter)(nil)
	_ render.Typist = (*tgadapter.Adapter)(nil)

	_ health.Connector = (*slackadapter.Adapter)(nil)
	_ health.Connector = (*discordadapter.Adapter)(nil)
	_ health.Connector = (*tgadapter.Adapter)(nil)
	_ health.Connector = (*cliadapter.Adapter)(nil)
	_ health.Connector = (*webadapter.Adapter)(nil)

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

// The app's own abilities: an adapter that serves HTTP answers the health checks (health.go);
// the web chat shows other adapters' cards, such as WhatsApp's QR code (linking.go).
var (
	_ healthServer = (*webadapter.Adapter)(nil)
	_ cardShower   = (*webadapter.Adapter)(nil)
)
