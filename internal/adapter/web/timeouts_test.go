package web

import (
	"bufio"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat/chattest"
	"github.com/mom-agent/mom/internal/store"
)

// startChat starts a web chat on a free loopback port with the given idle timeout and
// returns its address.
func startChat(t *testing.T, idle time.Duration) string {
	t.Helper()
	return startChatWith(t, idle, func(*Adapter) {})
}

// startChatWith is startChat with setup called on the chat before it starts.
func startChatWith(t *testing.T, idle time.Duration, setup func(*Adapter)) string {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	a := New(Options{Name: "web", Store: st, IdleTimeout: idle,
		Config: Config{Listen: "127.0.0.1:0", Token: "test-token-0123456789abcdef"}})
	setup(a)
	if err := a.Start(context.Background(), &chattest.Inbox{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
		defer cancel()
		if err := a.Stop(ctx); err != nil {
			t.Errorf("stopping: %v", err)
		}
	})
	return a.Addr().String()
}

// exchange sends a raw request on conn and reads the answer.
func exchange(t *testing.T, conn net.Conn, r *bufio.Reader, req string) *http.Response {
	t.Helper()
	if _, err := io.WriteString(conn, req); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		t.Fatalf("reading the answer to %q: %v", req, err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp
}

// closedByServer reports whether the server closes conn: the next read ends with EOF (or a
// reset) rather than at the hang guard.
func closedByServer(t *testing.T, conn net.Conn, r *bufio.Reader) bool {
	t.Helper()
	conn.SetReadDeadline(time.Now().Add(hangGuard))
	_, err := r.ReadByte()
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	if err == nil {
		t.Fatal("the server sent more than its answer")
	}
	return true
}

// TestIdleConnectionIsClosed: a browser that keeps a connection open after its request and
// sends nothing more has it closed by the server.
func TestIdleConnectionIsClosed(t *testing.T) {
	t.Parallel()
	addr := startChat(t, 20*time.Millisecond)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	resp := exchange(t, conn, r, "GET /healthz HTTP/1.1\r\nHost: "+addr+"\r\n\r\n")
	if resp.StatusCode != http.StatusOK || resp.Close {
		t.Fatalf("/healthz: %d, close %v; want 200 on a kept-alive connection", resp.StatusCode, resp.Close)
	}
	if !closedByServer(t, conn, r) {
		t.Errorf("an idle connection was still open after %s", hangGuard)
	}
}

// TestRefusedRequestIsHungUp: a stranger (no token) who starts a body and then trickles it,
// or sends nothing more, is answered 401 and the connection is closed, rather than held
// while net/http waits for the rest of the body.
func TestRefusedRequestIsHungUp(t *testing.T) {
	t.Parallel()
	addr := startChat(t, 20*time.Millisecond)
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	r := bufio.NewReader(conn)
	resp := exchange(t, conn, r, "POST /api/channels HTTP/1.1\r\nHost: "+addr+
		"\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{\"na")
	if resp.StatusCode != http.StatusUnauthorized || !resp.Close {
		t.Fatalf("without the token: %d, close %v; want 401 and the connection closed", resp.StatusCode, resp.Close)
	}
	if !closedByServer(t, conn, r) {
		t.Errorf("a refused request's connection was still open after %s", hangGuard)
	}
}
