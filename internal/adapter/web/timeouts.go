package web

import (
	"net/http"
	"time"
)

// How long the chat waits on a browser. A connection that waits longer is closed, so
// connections nobody uses do not pile up.
//
// There is no ReadTimeout or WriteTimeout for a whole request: a person may attach ten files
// of 25 MB, or download one, over a slow link, and the WebSocket lives for as long as the page
// is open (net/http clears the deadlines when it is taken over; live.go pings it and gives
// each frame writeTimeout). Only people with the token get that far.
const (
	// headerTimeout bounds the wait for a request's headers.
	headerTimeout = 10 * time.Second
	// defaultIdleTimeout bounds the wait between two requests on a kept-alive connection,
	// and for what is left of a refused request.
	defaultIdleTimeout = 2 * time.Minute
)

// idleTimeout is Options.IdleTimeout, or defaultIdleTimeout.
func (a *Adapter) idleTimeout() time.Duration {
	if a.opts.IdleTimeout > 0 {
		return a.opts.IdleTimeout
	}
	return defaultIdleTimeout
}

// hangUp closes the connection once a refused request is answered. net/http reads up to
// 256 KB of a body the handler left unread, to keep the connection; without a deadline a
// stranger could send it a byte at a time and hold the connection for ever (and mom's
// shutdown, which waits for it), so the rest of the request gets the idle time at most.
func (a *Adapter) hangUp(w http.ResponseWriter) {
	w.Header().Set("Connection", "close")
	_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(a.idleTimeout()))
}
