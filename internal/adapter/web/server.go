package web

import (
	"embed"
	"encoding/json"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"strings"
	"time"
)

// assets are the chat page, its script and its style: plain files, no build step.
//
//go:embed assets
var assets embed.FS

// sessionAge is how long the cookie set by a ?token= visit lasts, so a newcomer does not
// need the printed address again every time the browser restarts.
const sessionAge = 30 * 24 * time.Hour

// routes builds the HTTP handler. Only /healthz and /readyz answer without the token, and
// /metrics, which checks a token of its own (the app's handler asks AcceptsToken).
func (a *Adapter) routes(addr net.Addr) http.Handler {
	_, port, _ := net.SplitHostPort(addr.String())
	cookie := cookieName(port)

	app := http.NewServeMux()
	static, _ := fs.Sub(assets, "assets")
	app.Handle("GET /assets/", http.StripPrefix("/assets/", http.FileServerFS(static)))
	app.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { a.index(w, r, cookie) })
	app.HandleFunc("GET /ws", a.serveWS)
	app.HandleFunc("GET /api/channels", a.listChannels)
	app.HandleFunc("POST /api/channels", a.createChannel)
	app.HandleFunc("GET /api/channels/{channel}/messages", a.history)
	app.HandleFunc("POST /api/channels/{channel}/messages", a.send)
	app.HandleFunc("POST /api/channels/{channel}/stop", a.stop)
	app.HandleFunc("POST /api/channels/{channel}/retry", a.retry)
	app.HandleFunc("POST /api/channels/{channel}/cards/{card}", a.pressCard)
	app.HandleFunc("GET /api/channels/{channel}/files/{file}", a.download)
	app.HandleFunc("GET /api/events", a.listWakeUps)
	app.HandleFunc("POST /api/name", a.checkName)

	a.mu.Lock()
	health := a.opts.Health
	a.mu.Unlock()
	root := http.NewServeMux()
	if health == nil {
		health = http.HandlerFunc(ownHealth)
	} else {
		root.Handle("GET /metrics", health) // it asks for its own token
	}
	root.Handle("GET /healthz", health)
	root.Handle("GET /readyz", health)
	root.Handle("/", a.guard(app, cookie))
	return root
}

// ownHealth answers /healthz and /readyz for a chat that was given no health checks (one
// started on its own, as in its tests): while it answers, it is up and connected.
func ownHealth(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if r.URL.Path == "/readyz" {
		_, _ = w.Write([]byte("ready\n"))
		return
	}
	_, _ = w.Write([]byte("ok\n"))
}

// guard lets through only requests that carry the token and, when they change something,
// come from the chat's own pages.
func (a *Adapter) guard(next http.Handler, cookie string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("X-Frame-Options", "DENY")
		h.Set("Cache-Control", "no-store")
		a.mu.Lock()
		token := a.token
		a.mu.Unlock()
		if !authorized(r, cookie, token) {
			a.hangUp(w)
			h.Set("Content-Type", "text/plain; charset=utf-8")
			h.Set("WWW-Authenticate", `Bearer realm="mom"`)
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte("mom's web chat needs its access token: open the address mom printed when it started (it ends in ?token=…), or send it as \"Authorization: Bearer <token>\".\n"))
			return
		}
		if r.Method != http.MethodGet && r.Method != http.MethodHead && !sameOrigin(r) {
			a.hangUp(w)
			writeError(w, http.StatusForbidden, "this request came from another site ("+r.Header.Get("Origin")+"); mom only takes changes from its own page")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// sameOrigin reports whether a request's Origin, when a browser sent one, is the chat itself.
func sameOrigin(r *http.Request) bool {
	o := r.Header.Get("Origin")
	if o == "" {
		return true // not a browser's cross-site request: curl, or a same-origin GET
	}
	u, err := url.Parse(o)
	return err == nil && strings.EqualFold(u.Host, r.Host)
}

// index serves the chat page. A visit with ?token= sets the session cookie and reloads the
// page without the token, so it does not stay in the address bar or the history.
func (a *Adapter) index(w http.ResponseWriter, r *http.Request, cookie string) {
	if t := r.URL.Query().Get("token"); t != "" {
		a.mu.Lock()
		valid := sameToken(t, a.token)
		a.mu.Unlock()
		if valid { // not a stale token next to a good cookie
			http.SetCookie(w, &http.Cookie{
				Name: cookie, Value: t, Path: "/", MaxAge: int(sessionAge.Seconds()),
				HttpOnly: true, SameSite: http.SameSiteStrictMode, Secure: r.TLS != nil,
			})
		}
		http.Redirect(w, r, "/", http.StatusSeeOther)
		return
	}
	w.Header().Set("Content-Security-Policy",
		"default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'")
	http.ServeFileFS(w, r, assets, "assets/index.html")
}

// writeJSON sends v as the answer.
func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

// writeError sends {"error": msg}: the page shows msg as it is, so it is worded for people.
func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}
