package main

import (
	"fmt"
	"strings"
	"testing"
)

// chatWorld is a data directory whose config has one chat adapter, pointed at a platform's
// fake. It is the world of a conformance row and the base of each platform's own world
// (slackWorld, discordWorld, tgWorld), which adds what only that platform has.
type chatWorld struct {
	*world
	pf platform
	// name is the adapter's name in the config, which is also the directory of its channels.
	name string
	p    *proc
	// wrongToken says the test gives mom a bad token on purpose, which the fake records as a
	// protocol violation.
	wrongToken bool
	// top holds more top-level config.json keys (`"models": {...}`), or "".
	top string
}

// newChatWorld makes the world; at the test's end it fails the test if mom broke the
// protocol of the platform (called platformName in the message), unless wrongToken is set.
// The config is written by configure.
func newChatWorld(t testing.TB, name, platformName string, pf platform) *chatWorld {
	t.Helper()
	cw := &chatWorld{world: newWorld(t), pf: pf, name: name}
	t.Cleanup(func() {
		if v := pf.violations(); len(v) > 0 && !cw.wrongToken {
			t.Errorf("mom broke the %s protocol:\n%s", platformName, strings.Join(v, "\n"))
		}
		if t.Failed() && cw.p != nil {
			t.Logf("mom's log:\n%s", cw.p.err)
		}
	})
	return cw
}

// configure writes the config: the fake model with fast retries, and the one adapter with the
// cast's admin and the extra settings (JSON keys such as `"busy": "queue"`, or "").
func (cw *chatWorld) configure(settings string) {
	cw.t.Helper()
	if settings != "" {
		settings = ", " + settings
	}
	top := cw.top
	if top != "" {
		top += ",\n  "
	}
	cw.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  %s"adapters": {%q: {%s, "admins": [%q]%s}},
}`, cw.llm.URL(), top, cw.name, cw.pf.adapter(), cw.pf.cast().admin, settings))
}

// run starts mom and waits until it is connected to the platform and running.
func (cw *chatWorld) run() *proc {
	cw.t.Helper()
	cw.p = cw.start()
	cw.pf.started(cw.t, cw.p)
	cw.p.waitForErr("mom is running")
	return cw.p
}

// stop sends SIGTERM and expects a clean exit.
func (cw *chatWorld) stop() {
	cw.t.Helper()
	cw.p.terminate()
}

// socketFake is a fake whose clients hold a socket that can be cut: Slack's Socket Mode and
// Discord's gateway.
type socketFake interface {
	Connections() int
	Connected() bool
	DropSocket()
}

// socketDrops is the drop and reconnected of a platform with a socketFake.
type socketDrops struct {
	f socketFake
	// at is the connection count at the last drop.
	at int
}

func (d *socketDrops) drop() {
	d.at = d.f.Connections()
	d.f.DropSocket()
}

func (d *socketDrops) reconnected() bool {
	return d.f.Connections() > d.at && d.f.Connected()
}
