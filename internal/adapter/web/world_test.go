package web_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// The web chat's behaviour tests run a whole mom in-process (package apptest) with a web chat
// on a free loopback port, and talk to it as a browser does (package fakeweb): the HTTP API
// and the WebSocket.

// webWorld is a data directory whose config has one adapter, "web", the web chat on a free
// port, and, once mom runs, a browser pointed at the chat.
type webWorld struct {
	*apptest.World
	*fakeweb.Browser
	t *testing.T
}

func newWebWorld(t *testing.T) *webWorld {
	t.Helper()
	ww := &webWorld{World: apptest.New(t), t: t}
	ww.Configure("web", `"type": "web", "listen": "127.0.0.1:0"`)
	return ww
}

// run starts mom and reads the chat's address and token from what it prints, as a person
// does: the data directory is new, so the token is in the address.
func (ww *webWorld) run() {
	ww.t.Helper()
	ww.Start()
	ww.WaitLog("Web chat: http://")
	base, token, ok := fakeweb.Announced(ww.Log())
	if !ok || token == "" {
		ww.t.Fatalf("no web chat address with its token in:\n%s", ww.Log())
	}
	ww.Browser = fakeweb.NewBrowser(ww.t, base, token, ww.Log)
}

// liveFrames connects to the WebSocket and returns a function that waits for the next frame
// matching a type (and, when set, whose text contains want).
func (ww *webWorld) liveFrames() func(typ, want string) map[string]any {
	ww.t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ww.t.Cleanup(cancel)
	conn, err := fakeweb.Dial(ctx, ww.Base(), ww.Token())
	if err != nil {
		ww.t.Fatalf("WebSocket: %v", err)
	}
	ww.t.Cleanup(func() { conn.CloseNow() })
	return func(typ, want string) map[string]any {
		ww.t.Helper()
		rctx, rcancel := context.WithTimeout(ctx, apptest.HangGuard)
		defer rcancel()
		for {
			_, b, err := conn.Read(rctx)
			if err != nil {
				ww.t.Fatalf("waiting for a %s frame with %q: %v\nmom's log:\n%s", typ, want, err, ww.Log())
			}
			var f map[string]any
			if err := json.Unmarshal(b, &f); err != nil {
				ww.t.Fatalf("frame %s: %v", b, err)
			}
			if (typ == "" || f["type"] == typ) && (want == "" || strings.Contains(string(b), want)) {
				return f
			}
		}
	}
}
