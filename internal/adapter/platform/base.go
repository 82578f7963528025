package platform

import (
	"log/slog"
	"net/http"
	"time"

	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/store"
)

// Base is what an adapter that talks to its platform over the network is built with besides
// its own settings; each such platform's Options embeds it.
type Base struct {
	// Name is the adapter's key in config.json.
	Name string
	// Store receives downloaded attachments and tells which channels have history to catch
	// up on; nil when mom only checks settings or downloads a history.
	Store *store.Store
	// HTTPClient makes every call and download; nil means Client's default.
	HTTPClient *http.Client
	// Log receives connection news and failures; nil discards them.
	Log *slog.Logger
}

// Base is the Base of the adapter named name, built with e.
func (e Env) Base(name string) Base {
	return Base{Name: name, Store: e.Store, Log: e.Log}
}

// Client is HTTPClient, or else a client whose calls give up after timeout: longer than the
// platform's longest call (a long poll), shorter than forever.
func (b Base) Client(timeout time.Duration) *http.Client {
	if b.HTTPClient != nil {
		return b.HTTPClient
	}
	return httpclient.New(timeout)
}

// Logger is Log, or else a logger that discards, with the adapter's name on every line.
func (b Base) Logger() *slog.Logger {
	log := b.Log
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return log.With("adapter", b.Name)
}
