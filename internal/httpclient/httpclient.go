// Package httpclient makes the HTTP clients mom talks to the outside with: the model
// providers and the chat platforms. Their redirects never carry credentials to another
// origin (CheckRedirect).
package httpclient

import (
	"net/http"
	"time"
)

// idleConnsPerHost is how many connections to one server are kept open between requests.
// net/http keeps two by default, so with many channels working at once most requests opened
// (and then dropped) a connection of their own, with its handshake, buffers and goroutines;
// mom talks to a handful of hosts, so it can keep as many as it uses.
const idleConnsPerHost = 64

// idleConnTimeout closes a kept connection nobody has used for this long (net/http's default
// is 90 s). After a burst of runs each kept connection holds two goroutines and their buffers
// (about 3 MB for the 64 a thousand channels leave behind), which should go before the memory
// freed after the burst is given back (see cmd/mom's releaseWhenIdle); a conversation that
// picks up again later pays one handshake, next to a model's seconds of answering.
const idleConnTimeout = 30 * time.Second

// New returns a client with the default transport's proxy settings, dial and TLS timeouts
// and HTTP/2, keeping idleConnsPerHost connections per host for reuse for up to
// idleConnTimeout, whose redirects leave
// the credentials behind when they lead to another origin (CheckRedirect). timeout limits a
// whole request, 0 for none (a streamed model answer may take many minutes).
func New(timeout time.Duration) *http.Client {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConns = max(t.MaxIdleConns, 2*idleConnsPerHost)
	t.MaxIdleConnsPerHost = idleConnsPerHost
	t.IdleConnTimeout = idleConnTimeout
	return &http.Client{Transport: t, Timeout: timeout, CheckRedirect: CheckRedirect}
}
