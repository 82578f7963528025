package slack_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The Slack adapter's behaviour tests run a whole mom in-process (package apptest) against the
// loopback Slack fake, Web API and Socket Mode, and assert what people would see on the fake's
// channels and threads.

const (
	slackBot = "U0BOT"
	general  = "C0GENERAL"
	adaID    = "U0ADA"   // an admin
	beaID    = "U0BEA"   // a colleague
	beaDM    = "D0BEADM" // bea's DM with mom
	adaDM    = "D0ADADM" // ada's DM with mom
)

// slackWorld is a data directory whose config has one Slack adapter, "acme", pointed at a
// fake workspace with two people, a channel and two DMs.
type slackWorld struct {
	*apptest.World
	t     *testing.T
	slack *fakeslack.Server
	// wrongToken says the test gives mom a bad token on purpose, which the fake records as a
	// protocol violation.
	wrongToken bool
}

func newSlackWorld(t *testing.T, settings string, opts ...fakeslack.Option) *slackWorld {
	t.Helper()
	s := fakeslack.New(append([]fakeslack.Option{fakeslack.WithBot(slackBot, "mom")}, opts...)...)
	t.Cleanup(s.Close)
	s.AddUser(fakeslack.User{ID: adaID, Name: "ada", RealName: "Ada Lovelace"})
	s.AddUser(fakeslack.User{ID: beaID, Name: "bea", RealName: "Bea Smith"})
	s.AddChannel(fakeslack.Channel{ID: general, Name: "general", Members: []string{adaID, beaID, slackBot}, BotMember: true})
	s.AddChannel(fakeslack.Channel{ID: beaDM, Kind: fakeslack.KindIM, User: beaID})
	s.AddChannel(fakeslack.Channel{ID: adaDM, Kind: fakeslack.KindIM, User: adaID})
	sw := &slackWorld{World: apptest.New(t), t: t, slack: s}
	t.Cleanup(func() {
		sw.Stop() // before the fake looks back on what mom did
		if v := s.Violations(); len(v) > 0 && !sw.wrongToken {
			t.Errorf("mom broke the Slack protocol:\n%s", strings.Join(v, "\n"))
		}
	})
	if settings != "" {
		settings = ", " + settings
	}
	sw.Configure("acme", fmt.Sprintf(`"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q, "admins": [%q]%s`,
		s.BotToken(), s.AppToken(), s.URL(), adaID, settings))
	return sw
}

// run starts mom and waits until it is connected to Socket Mode.
func (sw *slackWorld) run() {
	sw.t.Helper()
	sw.Start()
	sw.slack.WaitFor(sw.t, "mom to connect to Socket Mode", sw.slack.Connected)
}

// botSays waits for a message from the bot in channel (thread "" for the top level) whose
// text contains want, and returns it.
func (sw *slackWorld) botSays(channel, thread, want string) fakeslack.Message {
	sw.t.Helper()
	return apptest.AwaitMessage(sw.t, sw.slack.WaitFor, fmt.Sprintf("the bot to say %q in %s/%s", want, channel, thread),
		func() []fakeslack.Message { return sw.visible(channel, thread) },
		func(m fakeslack.Message) bool { return m.User == slackBot && strings.Contains(m.Text, want) })
}

func (sw *slackWorld) visible(channel, thread string) []fakeslack.Message {
	if thread == "" {
		return sw.slack.Messages(channel)
	}
	return sw.slack.Replies(channel, thread)
}
