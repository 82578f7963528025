// Package slack connects mom to a Slack workspace as a bot over Socket Mode, so no public URL
// is needed: events arrive on a WebSocket the bot opens, replies go out through the Web API.
// Mentions and DMs start runs; other messages in the bot's channels are logged as history.
// Replies are drawn by the shared renderer: a status message that becomes the answer, with
// tool details and usage in the thread under it.
package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// MaxText is the longest message mom posts, in characters. Slack takes up to 40,000 but
// folds long messages behind "show more" and recommends staying near 4,000; 8,000 keeps an
// answer readable in one piece most of the time.
const MaxText = 8000

// maxAttachment is the largest file mom downloads from a message.
const maxAttachment = 25 << 20

// Options configure an Adapter.
type Options struct {
	platform.Base
	// Config holds the tokens and placement options.
	Config Config
}

// Adapter is a Slack workspace as seen by one bot user.
type Adapter struct {
	opts  Options
	api   *slackgo.Client
	log   *slog.Logger
	dir   *directory
	gate  *intake.Gate
	rate  chat.Retrier
	run   chat.Routines
	fetch *fetch.Fetcher

	mu    sync.Mutex
	bot   chat.User // the bot's own user
	botID string    // the bot's bot_id (B…), which its own messages carry
	// everConnected says a connection was made once, after which token errors are retried
	// like any other (a revoked token is reported, but the person may fix it in Slack).
	everConnected bool
	// up says the Socket Mode connection is open (see Connected).
	up atomic.Bool
}

// New returns an adapter that is not connected yet; Start connects it.
func New(opts Options) *Adapter {
	hc := opts.Client(2 * time.Minute)
	log := opts.Logger()
	apiOpts := []slackgo.Option{slackgo.OptionHTTPClient(hc), slackgo.OptionAppLevelToken(opts.Config.AppToken)}
	if u := opts.Config.APIURL; u != "" {
		if !strings.HasSuffix(u, "/") {
			u += "/"
		}
		apiOpts = append(apiOpts, slackgo.OptionAPIURL(u))
	}
	a := &Adapter{
		opts: opts, log: log,
		api:  slackgo.New(opts.Config.BotToken, apiOpts...),
		gate: intake.NewGate(opts.Name, "Slack", log),
		rate: chat.Retrier{Platform: "Slack", Log: log, RetryAfter: retryAfter},
		fetch: &fetch.Fetcher{Platform: "Slack", Adapter: opts.Name, Store: opts.Store, Log: log,
			Max: maxAttachment, HTTP: hc, Hosts: hosts(opts.Config.APIURL)},
	}
	a.dir = newDirectory(a)
	return a
}

// Name is the adapter's key in config.json.
func (a *Adapter) Name() string { return a.opts.Name }

// Bot is the bot's own user, as Slack knows it.
func (a *Adapter) Bot() chat.User {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.bot
}

// Start checks the tokens, loads the workspace's users and channels, catches up on channels
// with history, and opens the Socket Mode connection. It returns once events can arrive.
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	auth, err := a.api.AuthTestContext(ctx)
	if err != nil {
		return chat.SignInError("Slack", "auth.test", explain(err), authError(err))
	}
	a.mu.Lock()
	a.bot = chat.User{ID: auth.UserID, Username: auth.User, IsBot: true}
	a.botID = auth.BotID
	a.mu.Unlock()
	if err := a.dir.load(ctx); err != nil {
		return err
	}
	if u, ok := a.dir.user(auth.UserID); ok {
		a.mu.Lock()
		a.bot = u
		a.mu.Unlock()
	}
	a.log.Info("signed in to Slack", "team", auth.Team, "bot", auth.User, "users", len(a.dir.users()), "channels", len(a.dir.channels()))

	runCtx := a.run.Begin(ctx)
	// The catch-up is queued before the connection opens, so live messages wait behind it
	// in their channels, and starts once it is open, so nothing said in between is missed.
	catchUp := a.catchUp().Queue(runCtx, in)
	sm := socketmode.New(a.api, socketmode.OptionLog(slogLogger{a.log}))
	hello := make(chan struct{})
	refused := make(chan error, 1)
	a.run.Go(func() { a.connectLoop(runCtx, sm, refused) })
	a.run.Go(func() { a.events(runCtx, sm, in, hello) })

	fail := func(err error) error {
		a.run.Abort()
		return err
	}
	select {
	case <-hello:
	case err := <-refused:
		return fail(fmt.Errorf("Slack did not accept the app token (apps.connections.open): %w", explain(err)))
	case <-ctx.Done():
		return fail(ctx.Err())
	case <-time.After(30 * time.Second):
		return fail(errors.New("the Socket Mode connection did not open within 30 seconds; check that Socket Mode is enabled for the app and that Slack is reachable"))
	}
	catchUp()
	return nil
}

// Stop closes the connection and waits for the adapter's goroutines.
func (a *Adapter) Stop(ctx context.Context) error {
	a.up.Store(false)
	return a.run.Stop(ctx, "slack adapter "+a.opts.Name, a.gate.Lanes)
}

// explain turns slack-go's terse error codes into advice for the person setting mom up.
func explain(err error) error {
	var se slackgo.SlackErrorResponse
	msg := err.Error()
	if errors.As(err, &se) {
		msg = se.Err
	}
	switch msg {
	case "invalid_auth", "not_authed":
		return fmt.Errorf("%w (the token is wrong or was revoked; copy it again from the app's settings)", err)
	case "account_inactive", "token_revoked":
		return fmt.Errorf("%w (the app was uninstalled or the token revoked; reinstall the app)", err)
	case "missing_scope":
		return fmt.Errorf("%w (the app lacks a scope; recreate it from `mom slack-manifest` and reinstall)", err)
	}
	return err
}

// slogLogger lets slack-go's debug output go to mom's log at debug level.
type slogLogger struct{ log *slog.Logger }

func (l slogLogger) Output(_ int, s string) error {
	l.log.Debug(strings.TrimSpace(s))
	return nil
}
