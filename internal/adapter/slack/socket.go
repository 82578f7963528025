package slack

import (
	"context"
	"time"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"
	"github.com/slack-go/slack/socketmode"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// connectLoop keeps a Socket Mode connection open until ctx ends. slack-go reconnects by
// itself after drops and refresh requests; it gives up only on errors it deems fatal (and on
// some it should not), so this loop starts it again with a growing pause. Before the first
// connection, a refused app token is sent to refused instead: retrying cannot fix it.
func (a *Adapter) connectLoop(ctx context.Context, sm *socketmode.Client, refused chan<- error) {
	pause := time.Second
	for {
		started := time.Now()
		err := sm.RunContext(ctx)
		a.up.Store(false)
		if ctx.Err() != nil {
			return
		}
		a.mu.Lock()
		ever := a.everConnected
		a.mu.Unlock()
		if !ever && authError(err) {
			refused <- err
			return
		}
		if time.Since(started) > time.Minute {
			pause = time.Second // it ran fine for a while: this is a fresh problem
		}
		a.log.Warn("the Slack connection stopped; reconnecting", "err", explain(err), "in", pause)
		select {
		case <-time.After(pause):
		case <-ctx.Done():
			return
		}
		pause = min(pause*2, 2*time.Minute)
	}
}

// events reads what the connection delivers until ctx ends. hello is closed at the first
// hello, when Slack starts sending events.
func (a *Adapter) events(ctx context.Context, sm *socketmode.Client, in chat.Inbox, hello chan struct{}) {
	first := true
	for {
		var ev socketmode.Event
		select {
		case ev = <-sm.Events:
		case <-ctx.Done():
			return
		}
		a.track(ev.Type)
		switch ev.Type {
		case socketmode.EventTypeHello:
			a.mu.Lock()
			a.everConnected = true
			a.mu.Unlock()
			if first {
				close(hello)
				first = false
			} else {
				a.log.Info("reconnected to Slack")
			}
		case socketmode.EventTypeConnectionError, socketmode.EventTypeIncomingError:
			a.log.Warn("Slack connection problem", "event", ev.Type, "detail", ev.Data)
		case socketmode.EventTypeInvalidAuth:
			a.log.Error("Slack refused the app token (xapp-…); copy it again from the app's Basic Information page")
		case socketmode.EventTypeEventsAPI:
			api, ok := ev.Data.(slackevents.EventsAPIEvent)
			if !ok || ev.Request == nil {
				continue
			}
			a.eventsAPI(ctx, sm, in, *ev.Request, api)
		case socketmode.EventTypeInteractive:
			cb, ok := ev.Data.(slackgo.InteractionCallback)
			if ev.Request == nil {
				continue
			}
			if !ok {
				_ = sm.Ack(*ev.Request)
				continue
			}
			a.interactive(ctx, sm, in, *ev.Request, cb)
		case socketmode.EventTypeSlashCommand:
			cmd, ok := ev.Data.(slackgo.SlashCommand)
			if ev.Request == nil {
				continue
			}
			if !ok {
				_ = sm.Ack(*ev.Request)
				continue
			}
			req := *ev.Request
			// Off the event loop: it waits for the command to be logged.
			a.run.Go(func() { a.slashCommand(ctx, sm, in, req, cmd) })
		}
	}
}

// eventsAPI handles one Events API envelope: a message goes through the intake gate, which
// acknowledges it once it is in the log (intake.Gate); anything else is acknowledged at once.
// Slack resends an envelope not acknowledged within seconds, and again after a reconnect,
// and sends two events (message and app_mention) for one mention: the gate takes each
// message once, by its key.
func (a *Adapter) eventsAPI(ctx context.Context, sm *socketmode.Client, in chat.Inbox, req socketmode.Request, ev slackevents.EventsAPIEvent) {
	ack := func() {
		if err := sm.Ack(req); err != nil {
			a.log.Warn("could not acknowledge a Slack event", "err", err)
		}
	}
	msg, ok := a.inbound(ev.InnerEvent.Data)
	if !ok {
		a.directoryEvent(ctx, ev.InnerEvent.Data)
		ack()
		return
	}
	a.gate.Take(ctx, in, intake.Delivery{
		Key: key(msg.channel, msg.ts), Lane: msg.channel, Ack: ack,
		Convert: func(ctx context.Context) (chat.Message, bool, error) { return a.convert(ctx, msg) },
	})
}

// key is what a Slack message is known by in the intake: a ts is unique only in its channel.
func key(channel, ts string) string { return channel + "/" + ts }

// authError reports whether Slack refused a token, which no reconnect can fix.
func authError(err error) bool {
	if err == nil {
		return false
	}
	switch err.Error() {
	case "invalid_auth", "not_authed", "account_inactive", "token_revoked", "not_allowed_token_type":
		return true
	}
	return false
}
