package fakeweb

import (
	"bytes"
	"context"
	"io"
	"mime/multipart"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/coder/websocket"
)

// announcement is the line mom prints for the web chat: the address, and the token when mom
// has just generated it.
var announcement = regexp.MustCompile(`Web chat: (http://[^ /]+/)(\?token=([0-9a-f]+))?`)

// Announced finds where the web chat is in what mom printed: base is its address
// (http://127.0.0.1:port/), token the access token when the line carries one (only the first
// start prints it). When mom printed the line more than once (it was restarted), the last one
// counts; ok is false when there is none.
func Announced(printed string) (base, token string, ok bool) {
	all := announcement.FindAllStringSubmatch(printed, -1)
	if len(all) == 0 {
		return "", "", false
	}
	m := all[len(all)-1]
	return m[1], m[3], true
}

// Call sends a request to the web chat at base, with the token unless it is "", and returns
// the answer and its body. Redirects are returned, not followed.
func Call(base, method, path, token string, body io.Reader, header http.Header) (*http.Response, string, error) {
	req, err := http.NewRequest(method, base+strings.TrimPrefix(path, "/"), body)
	if err != nil {
		return nil, "", err
	}
	for k, v := range header {
		req.Header[k] = v
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, string(b), err
}

// MessageForm is a message as the page sends it: a multipart form with name, text and files
// (by file name), and the header that names its type.
func MessageForm(name, text string, files map[string]string) (io.Reader, http.Header) {
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("name", name)
	mw.WriteField("text", text)
	for fn, content := range files {
		fw, _ := mw.CreateFormFile("file", fn)
		io.WriteString(fw, content)
	}
	mw.Close()
	return &buf, http.Header{"Content-Type": {mw.FormDataContentType()}}
}

// Dial opens the web chat's WebSocket at base with the token, as the page does.
func Dial(ctx context.Context, base, token string) (*websocket.Conn, error) {
	conn, _, err := websocket.Dial(ctx, WebSocketURL(base), &websocket.DialOptions{HTTPHeader: http.Header{"Authorization": {"Bearer " + token}}})
	if err != nil {
		return nil, err
	}
	conn.SetReadLimit(1 << 22)
	return conn, nil
}

// WebSocketURL is the address of the WebSocket of the web chat at base.
func WebSocketURL(base string) string {
	return "ws" + strings.TrimPrefix(base, "http") + "ws"
}

// Browser is a person's browser pointed at the web chat: its address and access token. Its
// methods fail the test when the chat cannot be reached.
type Browser struct {
	t           testing.TB
	base, token string
	log         func() string
}

// NewBrowser points a browser at the web chat at base (as Announced finds it) with token.
// log, when not nil, is what mom printed, shown beside a failure.
func NewBrowser(t testing.TB, base, token string, log func() string) *Browser {
	return &Browser{t: t, base: base, token: token, log: log}
}

// Base is the chat's address, http://127.0.0.1:port/.
func (b *Browser) Base() string { return b.base }

// Token is the chat's access token.
func (b *Browser) Token() string { return b.token }

// Request sends a request with token (none when it is "") and returns the answer and its body.
func (b *Browser) Request(method, path, token string, body io.Reader, header http.Header) (*http.Response, string) {
	b.t.Helper()
	resp, text, err := Call(b.base, method, path, token, body, header)
	if err != nil {
		b.t.Fatal(err)
	}
	return resp, text
}

// Post sends a message to channel as the page does (MessageForm), with the access token.
func (b *Browser) Post(channel, name, text string, files map[string]string) (*http.Response, string) {
	b.t.Helper()
	body, header := MessageForm(name, text, files)
	return b.Request("POST", "/api/channels/"+channel+"/messages", b.token, body, header)
}
