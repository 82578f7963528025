package customtools

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/httpclient"
)

// pingEvery is how often a connected remote server is asked whether it is still there. A
// process's exit is seen at once; a remote server's outage only when something is sent.
const pingEvery = 30 * time.Second

// codeRejected is the code the SDK's transports give a request that never got an answer
// (jsonrpc2.ErrRejected, which is internal to the SDK): refused connection, a 503, and so on.
const codeRejected = -32005

// remote is a server at a URL (mcp.json's "url"), reached with the SDK's own client transports.
type remote struct {
	manifest  string // the mcp.json, for messages
	url       string
	origin    string // scheme://host of url: the only place the headers are sent
	transport string
	// headers are the expanded "headers"; raw are the values as written, for messages.
	headers http.Header
	raw     map[string]string
	base    http.RoundTripper
}

// newRemote expands the "headers" of the mcp.json at path. A ${VAR} that is not set is an
// error naming it, as for "env".
func newRemote(path string, spec mcpSpec, getenv func(string) (string, bool)) (*remote, error) {
	u, err := url.Parse(spec.URL)
	if err != nil {
		return nil, fmt.Errorf("%s: \"url\": %w", path, err)
	}
	r := &remote{
		manifest: path, url: spec.URL, origin: u.Scheme + "://" + u.Host, transport: spec.Transport,
		headers: make(http.Header), raw: spec.Headers,
		// No overall timeout: the standalone stream stays open as long as the session does.
		base: httpclient.New(0).Transport,
	}
	for k, v := range spec.Headers {
		value, err := config.ExpandEnv(v, getenv)
		if err != nil {
			return nil, fmt.Errorf("%s: \"headers\".%s: %w", path, k, err)
		}
		r.headers.Set(k, value)
	}
	return r, nil
}

// open prepares one session's connection.
func (r *remote) open() *remoteLink {
	l := &remoteLink{remote: r}
	l.client = &http.Client{Transport: l, CheckRedirect: httpclient.CheckRedirect}
	return l
}

// remoteLink is one session with a remote server. It is the session's HTTP transport too, so
// that it adds the headers and sees a refusal of them.
type remoteLink struct {
	*remote
	client *http.Client

	mu      sync.Mutex
	refused *http.Response // the last 401 or 403, body closed
	lost    error          // why a ping said the server is gone
}

func (l *remoteLink) transport() mcp.Transport {
	if l.remote.transport == transportSSE {
		return &mcp.SSEClientTransport{Endpoint: l.url, HTTPClient: l.client}
	}
	return &mcp.StreamableClientTransport{Endpoint: l.url, HTTPClient: l.client}
}

// RoundTrip sends req with the configured headers when it goes to the server's origin (never
// to wherever a redirect or an SSE endpoint event points), and notes a refusal.
func (l *remoteLink) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Scheme+"://"+req.URL.Host == l.origin && len(l.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range l.headers {
			req.Header[k] = v
		}
	}
	resp, err := l.base.RoundTrip(req)
	if err == nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden) {
		l.mu.Lock()
		l.refused = &http.Response{Status: resp.Status, StatusCode: resp.StatusCode, Header: resp.Header.Clone()}
		l.mu.Unlock()
	}
	return resp, err
}

// gone pings the server every pingEvery and is closed when a ping gets no answer.
func (l *remoteLink) gone(ctx context.Context, session *mcp.ClientSession) <-chan struct{} {
	c := make(chan struct{})
	go func() {
		tick := time.NewTicker(pingEvery)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			pctx, cancel := context.WithTimeout(ctx, pingEvery/2)
			err := session.Ping(pctx, nil)
			cancel()
			switch {
			case err == nil || ctx.Err() != nil:
				continue
			case !unanswered(err):
				return // it answered, if only to say it does not do pings
			}
			l.mu.Lock()
			if l.lost == nil {
				l.lost = fmt.Errorf("it stopped answering: %w", err)
			}
			l.mu.Unlock()
			close(c)
			return
		}
	}()
	return c
}

// drop ends the session for the reason err, so that a new one is made.
func (l *remoteLink) drop(session *mcp.ClientSession, err error) {
	l.mu.Lock()
	if l.lost == nil {
		l.lost = err
	}
	l.mu.Unlock()
	go session.Close()
}

// explain says which header to fix when the server refused mom's credentials.
func (l *remoteLink) explain(err error) error {
	l.mu.Lock()
	refused := l.refused
	l.mu.Unlock()
	if refused == nil {
		return err
	}
	hint := l.credentialHint()
	if challenge := refused.Header.Get("WWW-Authenticate"); challenge != "" {
		hint += fmt.Sprintf(" (the server asks for: %.200s)", challenge)
	}
	return fmt.Errorf("%w; the server refused mom's credentials (%s): %s", err, refused.Status, hint)
}

// envRef finds the ${VAR}s in a header's value.
var envRef = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)`)
})

// credentialHint names the headers to fix: those that carry a ${VAR} (where tokens come
// from), or else every header the manifest sets, or says that it sets none.
func (l *remoteLink) credentialHint() string {
	var names, vars []string
	for k, v := range l.raw {
		if refs := envRef().FindAllStringSubmatch(v, -1); len(refs) > 0 {
			names = append(names, k)
			for _, m := range refs {
				vars = append(vars, m[1])
			}
		}
	}
	if len(names) == 0 {
		for k := range l.raw {
			names = append(names, k)
		}
	}
	if len(names) == 0 {
		return fmt.Sprintf("%s sends no \"headers\"; add the one the server wants, e.g. \"headers\": {\"Authorization\": \"Bearer ${TOKEN}\"}", l.manifest)
	}
	slices.Sort(names)
	slices.Sort(vars)
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = fmt.Sprintf("%q", n)
	}
	noun := "header"
	if len(names) > 1 {
		noun = "headers"
	}
	hint := fmt.Sprintf("check the %s %s in %s", noun, strings.Join(quoted, ", "), l.manifest)
	if len(vars) > 0 {
		hint += " and the value of " + strings.Join(slices.Compact(vars), ", ") + " in mom's environment"
	}
	return hint
}

// ended says why the session ended.
func (l *remoteLink) ended(sessionErr error) error {
	l.mu.Lock()
	lost := l.lost
	l.mu.Unlock()
	switch {
	case lost != nil:
		return lost
	case sessionErr != nil:
		return l.explain(fmt.Errorf("the connection was lost: %w", sessionErr))
	}
	return l.explain(errors.New("the server closed the connection"))
}

// close has nothing to stop: closing the session ends the connection.
func (l *remoteLink) close() {}

// unanswered says whether a request's error means the server did not answer it (a refused
// connection, a lost session, an HTTP error) rather than answering with a JSON-RPC error.
func unanswered(err error) bool {
	var werr *jsonrpc.Error
	if errors.As(err, &werr) {
		return werr.Code == codeRejected
	}
	return true
}
