package config

import (
	"fmt"
	"net"
	"strings"
)

// DefaultWebListen is where the web chat listens unless "listen" says otherwise: loopback
// only, so nobody else on the network can reach it.
const DefaultWebListen = "127.0.0.1:8787"

// minWebToken is the shortest token the web chat accepts from config.json: long enough that
// guessing it over the network is hopeless.
const minWebToken = 16

// WebOptions are the web chat's own options.
type WebOptions struct {
	// Listen is the host:port the HTTP server binds; port 0 picks a free one (tests).
	Listen string
	// Token is the access token from config.json. Empty means mom generates one on first
	// start and keeps it in the data directory.
	Token string
}

var webKind = adapterKind{
	keys: []string{"listen", "token"},
	// Everyone who has the token may talk to mom: the token is the access control.
	dm:     DMPolicy{Everyone: true},
	userID: "web:ada",
	groups: &groupKind{def: GroupPolicy{Everyone: true}, example: "general",
		noLookup: "everyone with the web chat's token is in every one of its channels"},
	decode: func(o *object, a *Adapter) {
		w := &WebOptions{Listen: DefaultWebListen}
		a.Web = w
		if s, ok := o.str("listen"); ok && strings.TrimSpace(s) != "" {
			w.Listen = strings.TrimSpace(s)
		}
		if s, ok := o.str("token"); ok {
			w.Token = strings.TrimSpace(s)
		}
		path := joinPath(o.path, "listen")
		if msg := listenProblem(w.Listen, DefaultWebListen); msg != "" {
			o.d.fail(path, "%s", msg)
			return
		}
		host, _, _ := net.SplitHostPort(w.Listen)
		if w.Token != "" && len(w.Token) < minWebToken {
			o.d.fail(joinPath(o.path, "token"), "is %d characters; use at least %d (e.g. the output of `openssl rand -hex 24`)", len(w.Token), minWebToken)
		}
		if !LoopbackHost(host) && w.Token == "" {
			o.d.fail(path, "%q can be reached from other machines; set \"token\" too (e.g. \"${MOM_WEB_TOKEN}\"), or listen on 127.0.0.1", w.Listen)
		}
	},
	describe: func(a *Adapter) string {
		token := "token generated in the data directory"
		if a.Web.Token != "" {
			token = "token from config"
		}
		return fmt.Sprintf("listens on %s; %s", a.Web.Listen, token)
	},
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
