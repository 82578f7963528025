// Package discord connects mom to Discord as a bot: events arrive over the gateway (a
// WebSocket the bot opens, resumed after drops), replies go out through the REST API. Mentions
// and DMs start runs; other messages in the bot's channels are logged as history, and at start
// what was said while mom was away is read back into the channels it has logs for. Replies are
// drawn by the shared renderer: a status message that becomes the answer, with tool details and
// usage in a thread created from it (as replies below it in DMs, where Discord has no
// threads), and the typing indicator on while mom works. mom's chat commands are also its
// application's slash commands (commands.go).
//
// It uses disgo's REST client and types directly rather than its bot framework, whose caches
// would hold every guild, channel, member and message mom never looks at; the gateway
// connection is its own (gateway.go).
package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/gateway"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// MaxText is the longest message Discord takes, in characters.
const MaxText = 2000

// maxAttachment is the largest file mom downloads from a message.
const maxAttachment = 25 << 20

// userAgent is what Discord asks every bot to send: "DiscordBot ($url, $versionNumber)".
const userAgent = "DiscordBot (https://github.com/mom-agent/mom, 1)"

// defaultAPI is Discord's REST root without the version; rest.Version is appended.
const defaultAPI = "https://discord.com/api"

// intents are the gateway events mom asks for: guilds (channels and threads), members (so the
// model can mention people by name), guild and direct messages, and their content. Members and
// message content are privileged: they must be switched on in the Developer Portal. Button
// presses and slash commands (INTERACTION_CREATE) come without any intent.
const intents = gateway.IntentGuilds | gateway.IntentGuildMembers | gateway.IntentGuildMessages |
	gateway.IntentDirectMessages | gateway.IntentMessageContent

// Options configure an Adapter.
type Options struct {
	platform.Base
	// Config holds the token and placement options.
	Config Config
}

// Adapter is a Discord bot as seen by mom.
type Adapter struct {
	opts     Options
	log      *slog.Logger
	client   rest.Client
	channels rest.Channels
	threads  rest.Threads
	// interactions answers button presses; its endpoints take the interaction's token.
	interactions rest.Interactions
	dir          *directory
	gate         *intake.Gate
	rate         chat.Retrier
	fetch        *fetch.Fetcher
	run          chat.Routines // the gateway connection's goroutine
	threadMu     sync.Mutex    // one thread creation at a time, so a message never gets two

	mu      sync.Mutex
	bot     chat.User
	appID   snowflake.ID // the application READY named, whose slash commands mom sets
	gw      *gatewayConn
	in      chat.Inbox
	ctx     context.Context // lives from Start to Stop
	pending map[string]bool // guilds READY listed whose GUILD_CREATE has not come yet
	synced  chan struct{}   // closed when pending empties after READY
}

// New returns an adapter that is not connected yet; Start connects it.
func New(opts Options) *Adapter {
	hc := opts.Client(2 * time.Minute)
	log := opts.Logger()
	api := strings.TrimRight(opts.Config.APIURL, "/")
	if api == "" {
		api = defaultAPI
	}
	client := rest.NewClient(opts.Config.BotToken,
		rest.WithURL(api+"/v"+strconv.Itoa(rest.Version)),
		rest.WithHTTPClient(hc),
		rest.WithUserAgent(userAgent),
		rest.WithLogger(log.With("lib", "disgo")),
		// One try: a 429 comes back as an error, and retry waits its retry_after, the same way
		// for every platform; buckets spaces calls by Discord's rate limit headers.
		rest.WithRateLimiter(newBuckets()),
	)
	a := &Adapter{
		opts: opts, log: log, client: client,
		channels:     rest.NewChannels(client, discord.AllowedMentions{Parse: []discord.AllowedMentionType{discord.AllowedMentionTypeUsers}}),
		threads:      rest.NewThreads(client),
		interactions: rest.NewInteractions(client, discord.AllowedMentions{}),
		gate:         intake.NewGate(opts.Name, "Discord", log),
		dir:          newDirectory(),
		rate:         chat.Retrier{Platform: "Discord", Log: log, RetryAfter: retryAfter},
		fetch: &fetch.Fetcher{Platform: "Discord", Adapter: opts.Name, Store: opts.Store, Log: log,
			Max: maxAttachment, HTTP: hc, Hosts: hosts(api)},
	}
	return a
}

// Name is the adapter's key in config.json.
func (a *Adapter) Name() string { return a.opts.Name }

// Bot is the bot's own user, as Discord knows it.
func (a *Adapter) Bot() chat.User {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bot
}

// Connected reports whether the gateway session is up (identified or resumed), for health
// checks.
func (a *Adapter) Connected() bool {
	a.mu.Lock()
	gw := a.gw
	a.mu.Unlock()
	return gw != nil && gw.ready.Load()
}

// Start checks the token, opens the gateway and waits until the guilds' channels and members
// have arrived. It returns once messages can arrive.
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	var me discord.User
	if err := a.client.Do(rest.GetCurrentUser.Compile(nil), nil, &me, rest.WithCtx(ctx)); err != nil {
		return chat.SignInError("Discord", "GET /users/@me", explain(err), unauthorized(err))
	}
	bot := userOf(me, nil)
	url := a.opts.Config.GatewayURL
	if url == "" {
		gb, err := rest.NewGateway(a.client).GetGatewayBot(rest.WithCtx(ctx))
		if err != nil {
			return fmt.Errorf("could not ask Discord for the gateway address (GET /gateway/bot): %w", explain(err))
		}
		url = gb.URL
	}
	runCtx := a.run.Begin(ctx)
	a.mu.Lock()
	a.bot, a.in, a.ctx = bot, in, runCtx
	a.synced = make(chan struct{})
	a.mu.Unlock()
	a.dir.setUser(bot)
	// The catch-up is queued before the gateway opens, so live messages wait behind it in
	// their channels, and starts once the guilds' channels and threads are known.
	catchUp := a.catchUp().Queue(runCtx, in)

	gw := &gatewayConn{token: a.opts.Config.BotToken, url: url, intents: intents,
		log: a.log, handle: a.onEvent}
	a.mu.Lock()
	a.gw = gw
	a.mu.Unlock()
	first := make(chan error, 1)
	a.run.Go(func() { gw.run(runCtx, first) })
	select {
	case err := <-first:
		if err != nil {
			a.run.Abort()
			return fmt.Errorf("could not connect to the Discord gateway (%s): %w", url, explainClose(err))
		}
	case <-time.After(30 * time.Second):
		a.run.Abort()
		return fmt.Errorf("the Discord gateway (%s) sent no READY within 30 seconds", url)
	case <-ctx.Done():
		a.run.Abort()
		return ctx.Err()
	}
	select {
	case <-a.synced:
	case <-time.After(10 * time.Second):
		a.log.Warn("Discord did not send every guild within 10 seconds; carrying on with what arrived")
	case <-ctx.Done():
		a.Stop(context.Background())
		return ctx.Err()
	}
	a.log.Info("connected to Discord", "bot", bot.Username, "users", len(a.dir.userList()), "channels", len(a.dir.channelList()))
	catchUp()
	a.run.Go(func() { a.registerCommands(runCtx) })
	return nil
}

// Stop closes the gateway and waits for the messages being handled.
func (a *Adapter) Stop(ctx context.Context) error {
	return a.run.Stop(ctx, "discord adapter "+a.opts.Name, a.gate.Lanes)
}

// explain turns REST errors into advice for the person setting mom up.
func explain(err error) error {
	var re *rest.Error
	if !errors.As(err, &re) || re.Response == nil {
		return err
	}
	switch re.Response.StatusCode {
	case http.StatusUnauthorized:
		return fmt.Errorf("%w (the token is wrong or was reset; copy a new one from the Developer Portal → Bot → Reset Token)", err)
	case http.StatusForbidden:
		return fmt.Errorf("%w (the bot lacks a permission in that channel; re-invite it with the URL in the README)", err)
	}
	return err
}

// unauthorized reports whether Discord refused the token.
func unauthorized(err error) bool {
	var re *rest.Error
	return errors.As(err, &re) && re.Response != nil && re.Response.StatusCode == http.StatusUnauthorized
}

// explainClose names what a gateway close code means for the person setting mom up.
func explainClose(err error) error {
	switch websocket.CloseStatus(err) {
	case 4004:
		return fmt.Errorf("%w (Discord refused the bot token)", err)
	case 4014:
		return fmt.Errorf("%w (switch on the Message Content and Server Members intents: Developer Portal → your application → Bot → Privileged Gateway Intents)", err)
	case 4013:
		return fmt.Errorf("%w (Discord does not know the intents mom asked for)", err)
	}
	return err
}
