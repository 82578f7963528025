package customtools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// remoteToken is the bearer token the loopback server wants.
const remoteToken = "tok-remote-1"

// remoteMCP is a loopback MCP server built with the SDK's own HTTP handlers, which can be
// stopped and started again on the same address, as a restarted server is: its sessions are
// gone.
type remoteMCP struct {
	t         *testing.T
	transport string // transportStreamable or transportSSE

	mu   sync.Mutex
	addr string
	srv  *http.Server
}

// startRemoteMCP starts a loopback server and stops it when the test ends.
func startRemoteMCP(t *testing.T, transport string) *remoteMCP {
	t.Helper()
	r := &remoteMCP{t: t, transport: transport, addr: "127.0.0.1:0"}
	r.start()
	t.Cleanup(r.stop)
	return r
}

// url is the server's endpoint.
func (r *remoteMCP) url() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return "http://" + r.addr + "/mcp"
}

// start serves on the server's address (a fresh one the first time) with a new MCP server,
// which knows none of the sessions of the one before.
func (r *remoteMCP) start() {
	r.t.Helper()
	r.mu.Lock()
	defer r.mu.Unlock()
	ln, err := net.Listen("tcp", r.addr)
	if err != nil {
		r.t.Fatal(err)
	}
	r.addr = ln.Addr().String()
	server := remoteTestServer()
	var mcpHandler http.Handler
	if r.transport == transportSSE {
		mcpHandler = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return server }, nil)
	} else {
		mcpHandler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server }, nil)
	}
	r.srv = &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.Header.Get("Authorization") != "Bearer "+remoteToken {
			w.Header().Set("WWW-Authenticate", `Bearer realm="loopback"`)
			http.Error(w, "invalid token", http.StatusUnauthorized)
			return
		}
		mcpHandler.ServeHTTP(w, req)
	})}
	go func() { _ = r.srv.Serve(ln) }()
}

// stop closes the listener and every connection, as a server that goes away does.
func (r *remoteMCP) stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.srv != nil {
		_ = r.srv.Close()
		r.srv = nil
	}
}

// remoteTestServer offers echo, and meta, which answers with the call's _meta.
func remoteTestServer() *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "remote-test", Version: "1"}, nil)
	mcp.AddTool(s, &mcp.Tool{Name: "echo", Description: "Send text back."},
		func(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "echo: " + in.Text}}}, nil, nil
		})
	mcp.AddTool(s, &mcp.Tool{Name: "meta", Description: "Send the call's _meta back."},
		func(_ context.Context, req *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
			b, err := json.Marshal(req.Params.Meta)
			if err != nil {
				return nil, nil, err
			}
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(b)}}}, nil, nil
		})
	return s
}

// remoteFolder writes a tool folder whose mcp.json points at url.
func remoteFolder(t *testing.T, dir, folder string, manifest map[string]any) {
	t.Helper()
	b, err := json.Marshal(manifest)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, folder), mcpManifest, string(b), 0o644)
}

// remoteOptions are test options whose environment holds token as MCP_REMOTE_TOKEN.
func remoteOptions(token string, dirs ...string) Options {
	o := testOptions(dirs...)
	o.Environ = append(append([]string(nil), o.Environ...), "MCP_REMOTE_TOKEN="+token)
	return o
}

// TestRemoteMCPTools: a server at a URL, over either transport, has its tools listed and
// called with the token of "headers" and the conversation in _meta.
func TestRemoteMCPTools(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{transportStreamable, transportSSE} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			server := startRemoteMCP(t, transport)
			dir := t.TempDir()
			remoteFolder(t, dir, "remote", map[string]any{
				"url": server.url(), "transport": transport,
				"headers": map[string]string{"Authorization": "Bearer ${MCP_REMOTE_TOKEN}"},
			})
			r, logs := startRegistryWith(t, remoteOptions(remoteToken, dir))
			if got := strings.Join(names(r.CustomTools()), " "); got != "echo meta" {
				t.Fatalf("tools = %q\n%s", got, logs)
			}
			if res, err := run(t, context.Background(), find(t, r, "echo"), `{"text": "hi"}`); err != nil || text(res) != "echo: hi" {
				t.Errorf("echo: %q, %v", text(res), err)
			}
			res, err := run(t, context.Background(), find(t, r, "meta"), `{}`)
			if err != nil || !strings.Contains(text(res), `"mom/channel":"slack-acme/C123"`) {
				t.Errorf("the server's _meta: %q, %v", text(res), err)
			}
			if !strings.Contains(logs.String(), "MCP server connected") {
				t.Errorf("the log does not say the server connected:\n%s", logs)
			}
		})
	}
}

// TestRemoteMCPReconnects: while a remote server is down its tools answer with an error that
// names it, and once it is back (a new process, which knows none of the old sessions) mom is
// connected again and the tools work.
func TestRemoteMCPReconnects(t *testing.T) {
	t.Parallel()
	for _, transport := range []string{transportStreamable, transportSSE} {
		t.Run(transport, func(t *testing.T) {
			t.Parallel()
			server := startRemoteMCP(t, transport)
			dir := t.TempDir()
			remoteFolder(t, dir, "remote", map[string]any{
				"url": server.url(), "transport": transport,
				"headers": map[string]string{"Authorization": "Bearer ${MCP_REMOTE_TOKEN}"},
			})
			r, logs := startRegistryWith(t, remoteOptions(remoteToken, dir))
			echo := find(t, r, "echo")
			if _, err := run(t, context.Background(), echo, `{"text": "before"}`); err != nil {
				t.Fatalf("before the outage: %v\n%s", err, logs)
			}

			server.stop()
			_, err := run(t, context.Background(), echo, `{"text": "during"}`)
			if err == nil || !strings.Contains(err.Error(), "the MCP server at "+server.url()) {
				t.Fatalf("a call while the server is down: %v", err)
			}
			if !hasTool(r, "echo") {
				t.Errorf("the tools went away with the server: %v", names(r.CustomTools()))
			}

			server.start()
			var last error
			waitUntil(t, "a call to succeed after the server is back", func() bool {
				var res string
				out, err := run(t, context.Background(), find(t, r, "echo"), `{"text": "after"}`)
				res, last = text(out), err
				return err == nil && res == "echo: after"
			})
			if n := strings.Count(logs.String(), "MCP server connected"); n < 2 {
				t.Errorf("connected %d times, want a new connection after the outage (last error %v):\n%s", n, last, logs)
			}
		})
	}
}

// TestRemoteMCPUnauthorized: a server that refuses the token is reported, in the log and by
// `mom check`, with the header to fix and the variable it comes from.
func TestRemoteMCPUnauthorized(t *testing.T) {
	t.Parallel()
	server := startRemoteMCP(t, transportStreamable)
	dir := t.TempDir()
	remoteFolder(t, dir, "remote", map[string]any{
		"url": server.url(), "headers": map[string]string{"Authorization": "Bearer ${MCP_REMOTE_TOKEN}"},
	})
	want := `the server refused mom's credentials (401 Unauthorized): check the header "Authorization" in ` +
		filepath.Join(dir, "remote", mcpManifest) + ` and the value of MCP_REMOTE_TOKEN in mom's environment (the server asks for: Bearer realm="loopback")`

	r, logs := startRegistryWith(t, remoteOptions("expired", dir))
	if len(r.CustomTools()) != 0 {
		t.Errorf("tools of a server that refused mom: %v", names(r.CustomTools()))
	}
	if !strings.Contains(logs.String(), strings.ReplaceAll(want, `"`, `\"`)) {
		t.Errorf("the log does not name the header to fix:\n%s\nwant %s", logs, want)
	}

	line := summaryLines(t, Summary(context.Background(), remoteOptions("expired", dir)))[filepath.Join(dir, "remote")]
	if !strings.HasPrefix(line, "MCP server at "+server.url()+" (streamable HTTP); it does not answer: ") || !strings.Contains(line, want) {
		t.Errorf("mom check says %q\nwant it to say %s", line, want)
	}
	line = summaryLines(t, Summary(context.Background(), remoteOptions(remoteToken, dir)))[filepath.Join(dir, "remote")]
	if want := "MCP server at " + server.url() + " (streamable HTTP); it answers, with tools echo, meta"; line != want {
		t.Errorf("mom check says %q, want %q", line, want)
	}
}

// TestRemoteMCPNoHeaders: a server that wants credentials mom does not send is met with a
// hint at the "headers" to add.
func TestRemoteMCPNoHeaders(t *testing.T) {
	t.Parallel()
	server := startRemoteMCP(t, transportSSE)
	dir := t.TempDir()
	remoteFolder(t, dir, "remote", map[string]any{"url": server.url(), "transport": "sse"})
	line := summaryLines(t, Summary(context.Background(), testOptions(dir)))[filepath.Join(dir, "remote")]
	if want := `sends no "headers"; add the one the server wants`; !strings.Contains(line, "(401 Unauthorized)") || !strings.Contains(line, want) {
		t.Errorf("mom check says %q, want it to mention %q", line, want)
	}
}

// TestRemoteMCPHeadersStayHome: the headers go to the server's origin only, never to another
// one a redirect (or an SSE endpoint event) points at.
func TestRemoteMCPHeadersStayHome(t *testing.T) {
	t.Parallel()
	seen := make(chan string, 2)
	record := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		seen <- req.Host + " " + req.Header.Get("Authorization")
	})
	other := httptest.NewServer(record)
	defer other.Close()
	home := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		if req.URL.Path == "/away" {
			http.Redirect(w, req, other.URL+"/elsewhere", http.StatusTemporaryRedirect)
			return
		}
		record(w, req)
	}))
	defer home.Close()
	r, err := newRemote("mcp.json", mcpSpec{URL: home.URL + "/mcp", Headers: map[string]string{"Authorization": "Bearer ${MCP_REMOTE_TOKEN}"}},
		lookupEnv([]string{"MCP_REMOTE_TOKEN=secret"}))
	if err != nil {
		t.Fatal(err)
	}
	client := r.open().client
	for _, path := range []string{"/mcp", "/away"} {
		resp, err := client.Get(home.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	homeHost, otherHost := strings.TrimPrefix(home.URL, "http://"), strings.TrimPrefix(other.URL, "http://")
	if got, want := <-seen, homeHost+" Bearer secret"; got != want {
		t.Errorf("the server got %q, want %q", got, want)
	}
	if got, want := <-seen, otherHost+" "; got != want {
		t.Errorf("another origin got %q, want %q: no credentials", got, want)
	}
}

// TestRemoteMCPManifest: the mistakes of a remote mcp.json name the key to fix.
func TestRemoteMCPManifest(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ manifest, want string }{
		{`{"url": "https://x.example/mcp", "command": "./s"}`, `has both "command" and "url"`},
		{`{"url": "ftp://x.example/mcp"}`, `"url" "ftp://x.example/mcp" is not an http:// or https:// address`},
		{`{"url": "https://u:p@x.example/mcp"}`, `put credentials in "headers"`},
		{`{"url": "https://x.example/mcp", "transport": "websocket"}`, `"transport" "websocket" is not one mom speaks`},
		{`{"url": "https://x.example/mcp", "env": {"A": "b"}}`, `a "url" server takes "headers"`},
		{`{"transport": "sse"}`, `"url" is missing`},
		{`{"url": "https://x.example/mcp", "headers": {"Bad Name": "x"}}`, `"headers": "Bad Name" is not a header name`},
		{`{"url": "https://x.example/mcp", "headers": {"Authorization": "Bearer ${NOT_SET_ANYWHERE}"}}`, `"headers".Authorization: `},
	} {
		dir := t.TempDir()
		writeFile(t, dir, mcpManifest, c.manifest, 0o644)
		o := testOptions(dir)
		o.Logger = slog.New(slog.DiscardHandler)
		_, err := openFolder(scanned{path: dir, kind: kindMCP}, &o, lookupEnv(o.Environ), nil)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v\nwant an error with %s", c.manifest, err, c.want)
		}
	}
}

// TestUnanswered: what counts as no answer from a remote server, which makes mom connect
// again, and what is the server's own answer.
func TestUnanswered(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		err  error
		want bool
	}{
		{fmt.Errorf("sending: %w", errors.New("dial tcp: connection refused")), true},
		{fmt.Errorf("sending: %w", &jsonrpc.Error{Code: codeRejected, Message: "rejected by transport"}), true},
		{fmt.Errorf("calling: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "unknown tool"}), false},
	} {
		if got := unanswered(c.err); got != c.want {
			t.Errorf("unanswered(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}
