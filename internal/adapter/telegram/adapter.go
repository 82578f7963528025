// Package telegram connects mom to Telegram as a bot through the Bot API, with long polling,
// so no public URL is needed. Private chats are DMs; in groups a mention of the bot, a reply
// to one of its messages or a /command@bot starts a run (mom's own commands, which it lists
// in the bot's command menu, also without the @bot), and everything else the bot can see
// is logged as history. Each forum topic is a channel of its own, answered inside the topic.
// Replies are drawn by the shared renderer in Telegram HTML: a status message edited into the
// answer, with tool details and usage as replies to it, and "typing…" while mom works.
//
// Updates are fetched by the adapter's own getUpdates loop rather than the library's, because
// Telegram forgets an update once a later call passes its id as offset, and the library does
// that before the update is handled: here the offset moves past a message only once it is in
// log.jsonl, so a crash loses nothing. Every other call goes through go-telegram/bot.
package telegram

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-telegram/bot"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// MaxText is the longest message Telegram takes, in UTF-16 code units of its visible text.
const MaxText = 4096

// maxAttachment is the largest file a bot may download through the Bot API (getFile).
const maxAttachment = 20 << 20

// maxUpload is the largest file a bot may send.
const maxUpload = 50 << 20

// defaultAPIURL is Telegram's Bot API server.
const defaultAPIURL = "https://api.telegram.org"

// Options configure an Adapter.
type Options struct {
	platform.Base
	// Config holds the token and options.
	Config Config
}

// Adapter is one Telegram bot.
type Adapter struct {
	opts  Options
	api   *bot.Bot
	http  *http.Client
	base  string // the Bot API's URL, without a trailing slash
	log   *slog.Logger
	dir   *directory
	gate  *intake.Gate
	rate  chat.Retrier
	run   chat.Routines
	fetch *fetch.Fetcher

	connected atomic.Bool

	mu  sync.Mutex
	bot chat.User
	// live is when mom began listening for new messages: when it asked for the last batch of
	// what was waiting for it (pollLoop); zero until then.
	live time.Time
}

// New returns an adapter that is not connected yet; Start connects it.
func New(opts Options) (*Adapter, error) {
	// Longer than a long poll, shorter than forever: a call that hangs is given up.
	hc := opts.Client(pollTimeout + time.Minute)
	log := opts.Logger()
	base := strings.TrimRight(opts.Config.APIURL, "/")
	if base == "" {
		base = defaultAPIURL
	}
	api, err := bot.New(opts.Config.BotToken, bot.WithServerURL(base), bot.WithSkipGetMe(),
		bot.WithHTTPClient(pollTimeout, hc),
		bot.WithErrorsHandler(func(err error) { log.Debug("Telegram library", "err", err) }))
	if err != nil {
		return nil, fmt.Errorf("telegram adapter %s: %w", opts.Name, err)
	}
	a := &Adapter{opts: opts, api: api, http: hc, base: base, log: log,
		gate: intake.NewGate(opts.Name, "Telegram", log),
		rate: chat.Retrier{Platform: "Telegram", Log: log, RetryAfter: retryAfter},
		fetch: &fetch.Fetcher{Platform: "Telegram", Adapter: opts.Name, Store: opts.Store, Log: log,
			Max: maxAttachment, PlatformMax: true, HTTP: hc,
			// Download addresses are the Bot API's own, with the token in the path.
			Hosts: fetch.Hosts{API: base}}}
	a.dir = newDirectory()
	return a, nil
}

// Name is the adapter's key in config.json.
func (a *Adapter) Name() string { return a.opts.Name }

// Bot is the bot's own user, as Telegram knows it.
func (a *Adapter) Bot() chat.User {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bot
}

func (a *Adapter) liveSince() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.live
}

// Connected reports whether the adapter is receiving updates: the bot signed in and the last
// getUpdates call did not fail.
func (a *Adapter) Connected() bool { return a.connected.Load() }

// Start checks the token (getMe) and starts polling for updates.
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	me, err := a.api.GetMe(ctx)
	if err != nil {
		return chat.SignInError("Telegram", "getMe", explain(err), errors.Is(err, bot.ErrorUnauthorized) || errors.Is(err, bot.ErrorNotFound))
	}
	a.mu.Lock()
	a.bot = chat.User{ID: strconv.FormatInt(me.ID, 10), Username: me.Username, DisplayName: me.FirstName, IsBot: true}
	a.mu.Unlock()
	if !me.CanReadAllGroupMessages {
		a.log.Info("privacy mode is on: in groups the bot sees only mentions, replies and commands (turn it off with @BotFather /setprivacy to log all chatter)")
	}
	a.log.Info("signed in to Telegram", "bot", me.Username)
	a.connected.Store(true)

	runCtx := a.run.Begin(ctx)
	a.run.Go(func() { a.pollLoop(runCtx, in) })
	a.run.Go(func() { a.registerCommands(runCtx) })
	return nil
}

// Stop ends polling and waits for the adapter's goroutines.
func (a *Adapter) Stop(ctx context.Context) error {
	if err := a.run.Stop(ctx, "telegram adapter "+a.opts.Name, a.gate.Lanes); err != nil {
		return err
	}
	a.connected.Store(false)
	return nil
}

// explain adds advice to the errors a person setting mom up can fix.
func explain(err error) error {
	switch {
	case errors.Is(err, bot.ErrorUnauthorized), errors.Is(err, bot.ErrorNotFound):
		return fmt.Errorf("%w (the token is wrong or was revoked; get it again from @BotFather with /token)", err)
	case errors.Is(err, bot.ErrorForbidden):
		return fmt.Errorf("%w (the bot was removed from the chat, or the person blocked it)", err)
	}
	return err
}
