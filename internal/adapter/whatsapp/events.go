//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"io"
	"time"

	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/types/events"
)

// silentLimit is how long keep-alive pings may go unanswered before the adapter reconnects
// itself. whatsmeow gives up on a silent connection after three minutes when it reconnects on
// its own; this is the watchdog behind it, for a connection it does not drop.
const silentLimit = 4 * time.Minute

// maxPause caps the wait between reconnection attempts.
const maxPause = time.Minute

// handle receives every event of the connection, one at a time (whatsmeow's event loop). For
// a message it returns only once the message is in log.jsonl, and false when it could not be
// logged or mom is stopping: then WhatsApp is not told the message arrived, and delivers it
// again.
func (a *Adapter) handle(evt any) bool {
	switch e := evt.(type) {
	case *events.Message:
		return a.onMessage(e)
	case *events.HistorySync:
		a.onHistory(e)
	case *events.Connected:
		a.onConnected()
	case *events.Disconnected:
		a.mu.Lock()
		was := a.conn.connected
		a.conn.connected = false
		stopping := a.ctx == nil || a.ctx.Err() != nil
		a.mu.Unlock()
		if was && !stopping {
			a.log.Warn("lost the connection to WhatsApp; reconnecting")
		}
		a.nudge()
	case *events.KeepAliveTimeout:
		a.mu.Lock()
		first := a.conn.silentSince.IsZero()
		if first {
			a.conn.silentSince = e.LastSuccess
			if a.conn.silentSince.IsZero() {
				a.conn.silentSince = time.Now()
			}
		}
		a.mu.Unlock()
		if first {
			a.log.Warn("WhatsApp stopped answering keep-alive pings; the connection counts as down until it answers again, or is made anew",
				"failures", e.ErrorCount, "lastAnswer", e.LastSuccess.Format(time.RFC3339))
		}
		a.nudge()
	case *events.KeepAliveRestored:
		a.mu.Lock()
		was := !a.conn.silentSince.IsZero()
		a.conn.silentSince = time.Time{}
		a.mu.Unlock()
		if was {
			a.log.Info("WhatsApp answers keep-alive pings again")
		}
	case *events.PairSuccess:
		a.onLinked(e)
	case *events.LoggedOut:
		a.onLoggedOut(e)
	case *events.StreamReplaced:
		a.mu.Lock()
		a.conn.connected, a.conn.replaced = false, true
		a.mu.Unlock()
		a.log.Error("another program connected as this linked WhatsApp device, and WhatsApp closed mom's connection. " +
			"Is a second mom running on a copy of this data directory? mom does not reconnect, to not fight over the device; restart it when the other one is gone.")
	case *events.TemporaryBan:
		a.log.Error("WhatsApp has banned this number for a while: "+e.String(), "adapter", a.opts.Name)
	case *events.ClientOutdated:
		a.log.Error("WhatsApp refuses this version of its web client; a newer mom (with a newer whatsmeow) is needed")
	case *events.ConnectFailure:
		a.log.Warn("WhatsApp refused the connection", "reason", e.Reason.String(), "message", e.Message)
	case *events.OfflineSyncCompleted:
		a.mu.Lock()
		a.conn.caughtUp = true
		a.mu.Unlock()
	case *events.OfflineSyncPreview:
		if e.Messages > 0 {
			a.log.Info("WhatsApp is delivering the messages sent while mom was away", "messages", e.Messages)
		}
	case *events.PushName:
		a.dir.learnName(e.JID, e.NewPushName)
	case *events.UndecryptableMessage:
		a.log.Warn("could not decrypt a WhatsApp message; the sender's phone is asked to send it again",
			"chat", e.Info.Chat.String(), "id", e.Info.ID)
	}
	return true
}

// onConnected notes a login: the first since Start, or one after the connection was lost.
func (a *Adapter) onConnected() {
	a.mu.Lock()
	again := a.conn.everConnected
	a.conn.connected, a.conn.everConnected = true, true
	a.conn.silentSince = time.Time{}
	self := a.self
	ready := a.ready
	a.ready = nil
	a.mu.Unlock()
	if ready != nil {
		close(ready)
	}
	if again {
		a.log.Info("connected to WhatsApp again")
		return
	}
	a.log.Info("connected to WhatsApp", "number", userID(self))
}

// onLoggedOut notes that the phone removed the device (or WhatsApp dropped it): nothing comes
// any more until it is linked anew.
func (a *Adapter) onLoggedOut(e *events.LoggedOut) {
	a.mu.Lock()
	a.conn.connected, a.conn.loggedOut = false, true
	ready := a.ready
	a.ready = nil
	a.mu.Unlock()
	if ready != nil {
		close(ready)
	}
	a.log.Error("WhatsApp logged this device out ("+e.Reason.String()+"), so mom answers nothing there any more. "+
		"Link it again with: "+a.linkCommand(), "adapter", a.opts.Name)
	// Not from this handler: closing the client waits for its event handlers.
	a.run.Go(a.setAsideDevice)
}

// setAsideDevice closes the logged-out device's store and keeps it aside under a name of its
// own, so the next link starts afresh and nothing of the old one is deleted unseen.
func (a *Adapter) setAsideDevice() {
	a.mu.Lock()
	c := a.client
	a.mu.Unlock()
	closer, ok := c.(io.Closer)
	if !ok || a.opts.Store == nil {
		return // the tests' fake keeps no store
	}
	if err := closer.Close(); err != nil {
		a.log.Warn("could not close the logged-out device's store", "err", err)
	}
	path, err := SetAsideLoggedOut(a.opts.Store.DataDir(), a.opts.Name, a.now())
	switch {
	case err != nil:
		a.log.Error("could not set the logged-out device's store aside", "err", err)
	case path != "":
		a.log.Warn("the logged-out device's store is kept aside", "path", path)
	}
}

// nudge wakes the supervisor.
func (a *Adapter) nudge() {
	select {
	case a.trouble <- struct{}{}:
	default:
	}
}

// supervise reconnects after the connection is lost or goes silent, until ctx ends: with a
// growing pause between attempts, and never after a logout or when another program took over
// the device. whatsmeow reconnects on its own too; this catches what it leaves (a silent
// connection it keeps, a failed reconnection it gave up on), and a Connect while whatsmeow's
// own attempt holds the connection answers ErrAlreadyConnected, which is no harm.
func (a *Adapter) supervise(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.trouble:
		}
		pause := time.Second
		for !a.healthy() {
			if !sleep(ctx, pause) {
				return
			}
			a.mu.Lock()
			c, st := a.client, a.conn
			a.mu.Unlock()
			if st.loggedOut || st.replaced {
				break
			}
			silent := !st.silentSince.IsZero() && time.Since(st.silentSince) > silentLimit
			switch {
			case silent:
				a.log.Warn("WhatsApp has not answered for a while; connecting anew", "silentSince", st.silentSince.Format(time.RFC3339))
				c.Disconnect()
			case st.connected || c.IsConnected():
				continue // logged in, or the socket is open and the login under way
			}
			if err := c.Connect(); err != nil && !errors.Is(err, whatsmeow.ErrAlreadyConnected) {
				a.log.Debug("could not reconnect to WhatsApp yet", "err", err, "next", 2*pause)
			}
			pause = min(2*pause, maxPause)
		}
	}
}

// healthy reports whether nothing needs the supervisor: the connection is up and answering,
// or it is down for good (logged out, taken over).
func (a *Adapter) healthy() bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.conn
	return c.loggedOut || c.replaced || c.connected && c.silentSince.IsZero()
}

// sleep waits d or until ctx ends, and reports whether it waited all of d.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
