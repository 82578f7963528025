// Package web is the browser chat (`"type": "web"`): an HTTP server that serves a single-page
// chat embedded in the binary, with no build step. People pick a display name, talk to mom in
// channels they create (web/<name>), attach files, download what mom attached, stop a run,
// and see the scheduled events. Replies stream over a WebSocket as they happen: the answer's
// text, a `→ label` line with collapsible details for every tool call, and the usage line.
//
// Every page, API call and WebSocket needs the access token (from config.json, or generated on
// first start and kept in the data directory), except /healthz and /readyz, mom's health
// checks, which say only whether mom is up and whether every adapter is connected. The app
// owns them and hands them to the chat (ServeHealth); the chat only serves them, and with
// them /metrics, which checks its bearer token itself (the chat's own token opens it:
// AcceptsToken).
package web

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// DefaultChannel is the channel every web chat has, so a newcomer can start typing at once.
const DefaultChannel = "general"

// Options configure the web chat.
type Options struct {
	// Name is the adapter's key in config.json.
	Name string
	// Config holds the listen address and the configured token, if any.
	Config Config
	// Store holds the channels' logs and attachments, and the data directory where a
	// generated token is kept.
	Store *store.Store
	// Adapters are the names of every configured adapter, to read wake-up files with.
	Adapters []string
	// Health answers GET /healthz and GET /readyz, which need no token: mom's health checks
	// over every adapter; and GET /metrics, which checks a token itself. Nil means the chat
	// answers the checks for itself alone (it is up, and connected, while it serves), and has
	// no /metrics.
	Health http.Handler
	// Announce receives the line that tells people where to open the chat (stderr).
	Announce io.Writer
	// Log receives connection news and failures.
	Log *slog.Logger
	// IdleTimeout is how long a connection may wait on the browser between requests, and
	// for the rest of a refused one, before it is closed; 0 means two minutes.
	IdleTimeout time.Duration
}

// Adapter is the web chat.
type Adapter struct {
	opts     Options
	log      *slog.Logger
	token    string
	live     *live
	notes    *notes
	md       *markdown
	activity *activity
	cards    *cards
	seq      atomic.Int64

	mu        sync.Mutex
	srv       *http.Server
	addr      net.Addr
	in        chat.Inbox
	users     map[string]chat.User
	stopping  map[string][]string // channel → its "Stopping…" notes, withdrawn when the run ends
	served    chan struct{}       // closed when the server has stopped
	wakeWatch *wakeUpWatch        // nil when the events directory cannot be watched
}

// New returns a web chat that is not listening yet; Start opens it.
func New(opts Options) *Adapter {
	log := opts.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Announce == nil {
		opts.Announce = io.Discard
	}
	a := &Adapter{opts: opts, log: log.With("adapter", opts.Name), live: newLive(), md: newMarkdown(), activity: newActivity(),
		cards: newCards(), users: make(map[string]chat.User), stopping: make(map[string][]string)}
	a.notes = newNotes(a.emit)
	return a
}

// Name is the adapter's key in config.json.
func (a *Adapter) Name() string { return a.opts.Name }

// Bot is mom's identity in the web chat; its replies are logged under it.
func (a *Adapter) Bot() chat.User { return chat.User{ID: "mom", Username: "mom", IsBot: true} }

// ServeHealth makes the chat answer /healthz, /readyz and /metrics with h, mom's health
// checks, which know every adapter, and its metrics, on its own address. Call it before Start.
func (a *Adapter) ServeHealth(h http.Handler) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.opts.Health = h
}

// AcceptsToken reports whether token is the chat's access token, which opens mom's /metrics
// too (metrics.Bearer). It is false until Start has loaded the token.
func (a *Adapter) AcceptsToken(token string) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return sameToken(token, a.token)
}

// Start loads or creates the access token, binds the listen address and serves until Stop.
// It returns once the chat can be opened.
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	token, fresh, err := loadToken(a.opts.Config.Token, a.opts.Store.DataDir(), a.opts.Name)
	if err != nil {
		return err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", a.opts.Config.Listen)
	if err != nil {
		return fmt.Errorf("the web chat cannot listen on %s: %w (set \"listen\" for %s, or MOM_WEB_LISTEN with the default config, to another address)",
			a.opts.Config.Listen, err, a.opts.Name)
	}
	srv := &http.Server{
		Handler:           a.routes(ln.Addr()),
		ReadHeaderTimeout: headerTimeout,
		IdleTimeout:       a.idleTimeout(),
		ErrorLog:          slog.NewLogLogger(a.log.Handler(), slog.LevelDebug),
	}
	wakeWatch, err := a.watchWakeUps()
	if err != nil {
		a.log.Warn("the side bar shows changes to the events only when reloaded", "err", err)
	}
	a.mu.Lock()
	a.token, a.srv, a.addr, a.in, a.served, a.wakeWatch = token, srv, ln.Addr(), in, make(chan struct{}), wakeWatch
	served := a.served
	a.mu.Unlock()
	go func() {
		defer close(served)
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			a.log.Error("the web chat stopped serving", "err", err)
		}
	}()
	a.announce(ln.Addr(), token, fresh)
	return nil
}

// announce says where to open the chat. A token mom just generated is printed once, inside a
// ready-to-click address; after that it stays in its file and out of the logs.
func (a *Adapter) announce(addr net.Addr, token string, fresh bool) {
	base := browserURL(addr)
	a.log.Info("web chat listening", "addr", addr.String(), "url", base)
	switch {
	case fresh:
		fmt.Fprintf(a.opts.Announce, "Web chat: %s?token=%s\n", base, token)
	case a.opts.Config.Token != "":
		fmt.Fprintf(a.opts.Announce, "Web chat: %s (use the token from config.json)\n", base)
	default:
		fmt.Fprintf(a.opts.Announce, "Web chat: %s (the access token is in %s)\n", base, tokenPath(a.opts.Store.DataDir(), a.opts.Name))
	}
}

// browserURL is the address a browser on this machine opens for a listener.
func browserURL(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://" + addr.String() + "/"
	}
	if ip := net.ParseIP(host); ip == nil || ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// Addr returns the address the chat listens on, once started.
func (a *Adapter) Addr() net.Addr {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.addr
}

// Connected reports whether the chat is listening.
func (a *Adapter) Connected() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.srv != nil
}

// Stop closes the browsers' connections and the server, and waits for its handlers.
func (a *Adapter) Stop(ctx context.Context) error {
	a.mu.Lock()
	srv, served, wakeWatch := a.srv, a.served, a.wakeWatch
	a.srv, a.wakeWatch = nil, nil
	a.mu.Unlock()
	if srv == nil {
		return nil
	}
	if wakeWatch != nil {
		wakeWatch.stop()
	}
	a.live.close()
	err := srv.Shutdown(ctx)
	if cerr := a.activity.close(); cerr != nil {
		a.log.Warn("could not close the chat's activity files", "err", cerr)
	}
	select {
	case <-served:
	case <-ctx.Done():
	}
	if err != nil {
		return fmt.Errorf("web chat %s did not stop in time: %w", a.opts.Name, err)
	}
	return nil
}

// nextID returns a message id that is unique across restarts: the time in nanoseconds and a
// counter for messages in the same instant.
func (a *Adapter) nextID(now time.Time) string {
	return strconv.FormatInt(now.UnixNano(), 10) + "-" + strconv.FormatInt(a.seq.Add(1), 10)
}
