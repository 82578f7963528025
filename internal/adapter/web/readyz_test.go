package web_test

import (
	"fmt"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// slackBot is mom's user in the Slack workspace beside the web chat.
const slackBot = "U0BOT"

// TestWebReadyzFollowsEveryAdapter: /readyz is 200 while Slack's socket is connected, and 503
// naming the Slack adapter once it drops, with no token needed and nothing else said.
func TestWebReadyzFollowsEveryAdapter(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	s := fakeslack.New(fakeslack.WithBot(slackBot, "mom"))
	t.Cleanup(s.Close)
	ww.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": %q, "baseUrl": %q},
  "adapters": {"web": {"type": "web", "listen": "127.0.0.1:0"},
               "acme": {"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q}},
}`, apptest.APIKey, ww.LLM.URL(), s.BotToken(), s.AppToken(), s.URL()))
	ww.run()
	s.WaitFor(t, "mom to connect to Socket Mode", s.Connected)
	if resp, body := ww.Request("GET", "/readyz", "", nil, nil); resp.StatusCode != 200 || body != "ready\n" {
		t.Errorf("readyz while connected: %d %q", resp.StatusCode, body)
	}
	s.Close()
	apptest.Eventually(t, "readyz to report Slack", func() bool {
		resp, body := ww.Request("GET", "/readyz", "", nil, nil)
		return resp.StatusCode == 503 && body == "not connected: acme\n"
	})
	if resp, body := ww.Request("GET", "/healthz", "", nil, nil); resp.StatusCode != 200 || body != "ok\n" {
		t.Errorf("healthz: %d %q", resp.StatusCode, body)
	}
	ww.Stop()
}
