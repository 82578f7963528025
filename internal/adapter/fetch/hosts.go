package fetch

import (
	"net/url"
	"strings"

	"github.com/mom-agent/mom/internal/httpclient"
)

// Hosts are a platform's own servers: the only ones mom downloads the platform's files from,
// and so the only ones the platform's credentials are sent to. A file whose address names
// another server is not fetched at all: it is the sign of a forged or broken event, and
// fetching it even without credentials would let whoever wrote the address make mom call
// any server it can reach (the cloud's metadata address, a service on the host's loopback).
type Hosts struct {
	// Domains are the platform's domains. An address is the platform's when it is https on
	// the default port and its host is one of them or under one ("files.example.com" under
	// "example.com").
	Domains []string
	// API is the address mom calls the platform's API at: the default, or the "apiUrl" of
	// config.json (a loopback fake in tests, a Bot API server of one's own). Its exact origin
	// (scheme, host and port) is the platform's too, whatever the scheme: the API calls
	// already carry the credentials there.
	API string
}

// Allows reports whether u is on one of the platform's servers.
func (h Hosts) Allows(u *url.URL) bool {
	if u.Host == "" {
		return false
	}
	if api, err := url.Parse(h.API); err == nil && h.API != "" && httpclient.Origin(api) == httpclient.Origin(u) {
		return true
	}
	if !strings.EqualFold(u.Scheme, "https") || (u.Port() != "" && u.Port() != "443") {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	for _, d := range h.Domains {
		if host == d || strings.HasSuffix(host, "."+d) {
			return true
		}
	}
	return false
}
