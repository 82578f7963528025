package web

import (
	"fmt"
	"net"
	"strings"

	"github.com/mom-agent/mom/internal/config"
)

// DefaultListen is where the web chat listens unless "listen" says otherwise: loopback only,
// so nobody else on the network can reach it.
const DefaultListen = "127.0.0.1:8787"

// minToken is the shortest token the web chat accepts from config.json: long enough that
// guessing it over the network is hopeless.
const minToken = 16

// Config are the web chat's own settings, from its entry in config.json.
type Config struct {
	// Listen is the host:port the HTTP server binds; port 0 picks a free one (tests).
	Listen string
	// Token is the access token from config.json. Empty means mom generates one on first
	// start and keeps it in the data directory.
	Token string
}

// Describe is what `mom check` says of the settings; it never shows the token.
func (c *Config) Describe() string {
	token := "token generated in the data directory"
	if c.Token != "" {
		token = "token from config"
	}
	return fmt.Sprintf("listens on %s; %s", c.Listen, token)
}

// config finds HealthClash by type assertion; a signature that drifted would drop the check.
var _ config.HealthServer = (*Config)(nil)

// HealthClash says why the health checks' own server cannot listen on addr: the chat listens
// there, and answers /healthz and /readyz itself.
func (c *Config) HealthClash(addr, name string) string {
	if c.Listen != addr {
		return ""
	}
	return fmt.Sprintf("%q is where the web chat %s listens, which answers /healthz and /readyz itself; use another port, or remove \"health\"", addr, name)
}

// configPlatform says how config.json's web chat entries are read.
func configPlatform() config.Platform {
	return config.Platform{
		Type: string(Kind),
		Keys: []string{"listen", "token"},
		// Everyone who has the token may talk to mom: the token is the access control.
		DM: config.DMPolicy{Everyone: true},
		// A message sent while mom works waits its turn: the page shows the note, and its
		// Stop button is there for the person who wants the run gone.
		Busy:   config.BusyQueue,
		UserID: "web:ada",
		Groups: &config.Groups{Default: config.GroupPolicy{Everyone: true}, Example: "general",
			NoLookup: "everyone with the web chat's token is in every one of its channels"},
		Decode: decodeConfig,
	}
}

// decodeConfig reads a web chat entry's own keys. Listening where other machines can reach
// the chat needs a token set in config.json.
func decodeConfig(o *config.Object) config.Options {
	c := &Config{Listen: DefaultListen}
	if s, ok := o.Str("listen"); ok && strings.TrimSpace(s) != "" {
		c.Listen = strings.TrimSpace(s)
	}
	if s, ok := o.Str("token"); ok {
		c.Token = strings.TrimSpace(s)
	}
	if msg := config.ListenProblem(c.Listen, DefaultListen); msg != "" {
		o.Fail("listen", "%s", msg)
		return c
	}
	host, _, _ := net.SplitHostPort(c.Listen)
	if c.Token != "" && len(c.Token) < minToken {
		o.Fail("token", "is %d characters; use at least %d (e.g. the output of `openssl rand -hex 24`)", len(c.Token), minToken)
	}
	if !LoopbackHost(host) && c.Token == "" {
		o.Fail("listen", "%q can be reached from other machines; set \"token\" too (e.g. \"${MOM_WEB_TOKEN}\"), or listen on 127.0.0.1", c.Listen)
	}
	return c
}

// LoopbackHost reports whether host (from a host:port) names only this machine: localhost or
// a loopback IP. An empty host or 0.0.0.0 listens on every interface, so it is not loopback.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
