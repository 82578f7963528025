//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/chat"
)

// maxAttachment is the largest file mom keeps of what people send, as on the other platforms.
const maxAttachment = 25 << 20

// connectWait bounds how long Start waits for WhatsApp to confirm the login. Past it, mom
// runs on and the adapter counts as not connected until WhatsApp answers.
const connectWait = 30 * time.Second

// Options configure an Adapter.
type Options struct {
	platform.Base
	// Config holds the adapter's settings.
	Config Config
	// Env is what Connect is handed: the data directory, mom's log.
	Env platform.Env
	// Connect opens the connection over the linked device; Start calls it.
	Connect Connector
	// Now tells the time; nil means the system clock.
	Now func() time.Time
}

// Adapter is one linked WhatsApp device: mom answering as one phone number.
type Adapter struct {
	opts  Options
	log   *slog.Logger
	now   func() time.Time
	gate  *intake.Gate
	fetch *fetch.Fetcher
	run   chat.Routines
	dir   *directory
	sent  *sentLog
	seen  *recentLog

	// trouble nudges the supervisor when the connection is lost or goes silent.
	trouble chan struct{}
	// stop is closed when Stop begins; handling counts the message handlers at work.
	stop     chan struct{}
	handling sync.WaitGroup

	mu       sync.Mutex
	client   Client
	in       chat.Inbox
	ctx      context.Context // the routines' context, which event handlers work in
	started  time.Time
	self     types.JID // mom's number, without a device
	selfLID  types.JID // mom's hidden id in groups that hide numbers, once known
	name     string    // mom's push name
	conn     connState
	ready    chan struct{} // closed at the first login or logout after Start
	stopping bool          // Stop has begun: handlers take no more messages
}

// connState is what the adapter knows of its connection.
type connState struct {
	linked, connected, loggedOut, replaced bool
	// silentSince is when keep-alive pings began to fail, zero while they are answered.
	silentSince time.Time
	// everConnected says a login succeeded since Start, so the next one is a reconnection.
	everConnected bool
	// caughtUp says WhatsApp has delivered what was sent while mom was away: messages from
	// now on are live.
	caughtUp bool
}

// New returns an adapter that is not connected yet; Start connects it.
func New(opts Options) *Adapter {
	log := opts.Logger()
	now := opts.Now
	if now == nil {
		now = time.Now
	}
	return &Adapter{opts: opts, log: log, now: now,
		gate: intake.NewGate(opts.Name, "WhatsApp", log),
		fetch: &fetch.Fetcher{Platform: "WhatsApp", Adapter: opts.Name, Store: opts.Store, Log: log,
			Max: maxAttachment},
		dir: newDirectory(), sent: newSentLog(), seen: newRecentLog(),
		trouble: make(chan struct{}, 1), stop: make(chan struct{})}
}

// Name is the adapter's key in config.json.
func (a *Adapter) Name() string { return a.opts.Name }

// Bot is mom's own account: its phone number, and the name its profile shows.
func (a *Adapter) Bot() chat.User {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.self.IsEmpty() {
		return chat.User{Username: "mom", IsBot: true}
	}
	return chat.User{ID: userID(a.self), Username: handle(a.name, a.self.User), DisplayName: a.name, IsBot: true}
}

// Connected reports whether WhatsApp is delivering messages: the device is linked, logged in,
// and answering keep-alive pings. A connection that is open but silent (the "connected but
// dead" state of a network that drops packets) counts as down, so /readyz shows it.
func (a *Adapter) Connected() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.conn
	return c.linked && c.connected && !c.loggedOut && c.silentSince.IsZero()
}

// Start opens the linked device and connects, and returns once WhatsApp confirmed the login.
// A device that is not linked yet, or was logged out from the phone, does not stop mom: the
// adapter says how to link it and stays not connected, while the other adapters work; where
// the web chat can show its QR codes, the app has it link in the background (ShowLinkCodes).
func (a *Adapter) Start(ctx context.Context, in chat.Inbox) error {
	if a.opts.Connect == nil {
		return errors.New("whatsapp adapter " + a.opts.Name + ": no way to connect")
	}
	c, err := a.opts.Connect(ctx, a.opts.Name, a.opts.Env)
	if err != nil {
		return fmt.Errorf("could not open the linked WhatsApp device: %w", err)
	}
	ready := make(chan struct{})
	a.mu.Lock()
	a.client, a.in, a.started, a.ready = c, in, a.now(), ready
	a.ctx = a.run.Begin(ctx)
	a.mu.Unlock()
	c.AddEventHandlerWithSuccessStatus(a.handle)

	self, name, linked := c.Self()
	if !linked {
		a.log.Warn("this WhatsApp adapter is not linked to a phone yet, so it answers nothing; mom runs on without it. "+
			"Link it with: "+a.linkCommand(), "adapter", a.opts.Name)
		return nil
	}
	a.mu.Lock()
	a.self, a.name, a.conn.linked = self.ToNonAD(), name, true
	a.mu.Unlock()
	if err := c.Connect(); err != nil {
		a.run.Abort()
		return chat.SignInError("WhatsApp", "connect", err, false)
	}
	a.run.Go(func() { a.supervise(a.context()) })
	wait := time.NewTimer(connectWait)
	defer wait.Stop()
	select {
	case <-ready:
	case <-wait.C:
		a.log.Warn("WhatsApp has not confirmed the login yet; mom runs on and keeps trying", "waited", connectWait)
	case <-ctx.Done():
		c.Disconnect()
		a.run.Abort()
		return ctx.Err()
	}
	return nil
}

// Stop ends the adapter's work and disconnects. A message being logged just then is not
// acknowledged, so WhatsApp delivers it again to the next mom.
func (a *Adapter) Stop(ctx context.Context) error {
	a.mu.Lock()
	if !a.stopping {
		a.stopping = true
		close(a.stop)
	}
	a.mu.Unlock()
	a.handling.Wait() // they return at once now, and no new one takes a message
	err := a.run.Stop(ctx, "whatsapp adapter "+a.opts.Name, a.gate.Lanes)
	a.mu.Lock()
	c := a.client
	a.conn.connected = false
	a.mu.Unlock()
	if closer, ok := c.(io.Closer); ok {
		if cerr := closer.Close(); cerr != nil { // disconnects, and closes the device's store
			a.log.Warn("could not close the WhatsApp device's store", "err", cerr)
		}
	} else if c != nil {
		c.Disconnect()
	}
	return err
}

// context is the context event handlers work in; nil before Start.
func (a *Adapter) context() context.Context {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.ctx
}

func (a *Adapter) startedAt() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.started
}

// connection is the open connection, or an error saying why there is none.
func (a *Adapter) connection() (Client, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	switch {
	case a.client == nil:
		return nil, errors.New("the WhatsApp adapter has not started")
	case !a.conn.linked || a.conn.loggedOut:
		return nil, errors.New("the WhatsApp adapter is not linked to a phone; link it with " + a.linkCommandLocked())
	}
	return a.client, nil
}

// linkCommand is the command that links this adapter's device.
func (a *Adapter) linkCommand() string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.linkCommandLocked()
}

func (a *Adapter) linkCommandLocked() string {
	dir := "<data-dir>"
	if a.opts.Store != nil {
		dir = a.opts.Store.DataDir()
	}
	return "mom whatsapp-link " + dir + " " + a.opts.Name
}
