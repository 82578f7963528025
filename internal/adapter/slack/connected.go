package slack

import "github.com/slack-go/slack/socketmode"

// Connected reports whether the Socket Mode connection is open: Slack has said hello and
// nothing has broken it since (for mom's /readyz).
func (a *Adapter) Connected() bool { return a.up.Load() }

// track follows the connection's state through the events slack-go reports.
func (a *Adapter) track(t socketmode.EventType) {
	switch t {
	case socketmode.EventTypeHello:
		a.up.Store(true)
	case socketmode.EventTypeConnecting, socketmode.EventTypeConnectionError, socketmode.EventTypeIncomingError,
		socketmode.EventTypeDisconnect, socketmode.EventTypeInvalidAuth:
		a.up.Store(false)
	}
}
