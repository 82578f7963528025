package main

import (
	"fmt"
	"testing"

	slackadapter "github.com/mom-agent/mom/internal/adapter/slack"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The Slack adapter's driver of the conformance suite, and the slackWorld that cmd/mom's
// tests of the binary run against the loopback Slack fake (Web API and Socket Mode). The
// adapter's own behaviour tests live in internal/adapter/slack.

// The Acme workspace (fakeslack.NewAcme), by the short names the Slack tests use.
const (
	slackBot, general = fakeslack.AcmeBot, fakeslack.AcmeGeneral
	adaID, adaDM      = fakeslack.AcmeAda, fakeslack.AcmeAdaDM // an admin and her DM with mom
	beaID, beaDM      = fakeslack.AcmeBea, fakeslack.AcmeBeaDM // a colleague and her DM with mom
)

// newSlackFake is the Acme workspace: two people, a channel and two DMs.
func newSlackFake(t testing.TB, opts ...fakeslack.Option) *fakeslack.Server {
	s := fakeslack.NewAcme(opts...)
	t.Cleanup(s.Close)
	return s
}

// slackWorld is a data directory whose config has one Slack adapter, "acme", pointed at a
// fake workspace (newSlackFake).
type slackWorld struct {
	*chatWorld
	slack *fakeslack.Server
}

func newSlackWorld(t testing.TB, settings string, opts ...fakeslack.Option) *slackWorld {
	t.Helper()
	s := newSlackFake(t, opts...)
	sw := &slackWorld{chatWorld: newChatWorld(t, "acme", "Slack", newSlackPlatformOn(s)), slack: s}
	sw.configure(settings)
	return sw
}

// botSays waits for a message from the bot in channel (thread "" for the top level) whose
// text contains want, and returns it.
func (sw *slackWorld) botSays(channel, thread, want string) fakeslack.Message {
	sw.t.Helper()
	return sw.slack.WaitBotSays(sw.t, channel, thread, want)
}

// slackPlatform runs the conformance suite against the Slack adapter and the Slack fake.
type slackPlatform struct {
	s *fakeslack.Server
	socketDrops
}

func newSlackPlatform(t *testing.T) platform { return newSlackPlatformOn(newSlackFake(t)) }

func newSlackPlatformOn(s *fakeslack.Server) *slackPlatform {
	return &slackPlatform{s: s, socketDrops: socketDrops{f: s}}
}

func (sp *slackPlatform) adapter() string {
	return fmt.Sprintf(`"type": "slack", "botToken": %q, "appToken": %q, "apiUrl": %q`,
		sp.s.BotToken(), sp.s.AppToken(), sp.s.URL())
}

func (sp *slackPlatform) cast() cast {
	return cast{admin: adaID, user: beaID, group: general, adminDM: adaDM, userDM: beaDM}
}

func (sp *slackPlatform) started(t testing.TB, p *proc) {
	sp.s.WaitFor(t, "mom to connect to Socket Mode", sp.s.Connected)
}

func (sp *slackPlatform) say(t *testing.T, m said) {
	var opts []fakeslack.SayOption
	if m.file != nil {
		opts = append(opts, fakeslack.WithFile(fakeslack.File{Name: m.file.name, Content: m.file.content}))
	}
	sp.s.Say(m.channel, m.from, m.addressed("<@"+slackBot+">"), opts...)
}

// shown lists the bot's top-level messages and its replies in every thread of the channel.
func (sp *slackPlatform) shown(channel string) []string {
	var out []string
	for _, m := range sp.s.Messages(channel) {
		if m.User == slackBot {
			out = append(out, m.Text)
		}
		if m.ReplyCount == 0 {
			continue
		}
		for _, r := range sp.s.Replies(channel, m.TS) {
			if r.User == slackBot {
				out = append(out, r.Text)
			}
		}
	}
	return out
}

func (sp *slackPlatform) deleted(channel string) int {
	n := 0
	for _, c := range sp.s.Calls("chat.delete") {
		if c.Form.Get("channel") == channel && c.Error == "" {
			n++
		}
	}
	return n
}

func (sp *slackPlatform) uploads(t *testing.T, channel string) []sentFile {
	var out []sentFile
	for _, u := range sp.s.Uploads() {
		if u.Channel == channel {
			out = append(out, sentFile{name: u.Filename, content: u.Content})
		}
	}
	return out
}

func (sp *slackPlatform) lacks(feature) string { return "" }

func (sp *slackPlatform) maxText() int { return slackadapter.MaxText }

func (sp *slackPlatform) codeIntact(text string) bool { return balancedFences(text) }

func (sp *slackPlatform) violations() []string { return sp.s.Violations() }

// decide taps the choice's button on the bot's newest message in the channel that has one.
func (sp *slackPlatform) decide(t *testing.T, channel, from, choice string) {
	t.Helper()
	msgs := sp.s.Messages(channel)
	for i := len(msgs) - 1; i >= 0; i-- {
		for _, b := range sp.s.Buttons(channel, msgs[i].TS) {
			if b.ActionID == choice {
				if _, err := sp.s.Click(from, channel, msgs[i].TS, choice); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
	}
	t.Fatalf("no message in %s has a %q button", channel, choice)
}

// refusals are the ephemeral messages the bot showed.
func (sp *slackPlatform) refusals() []string {
	var out []string
	for _, e := range sp.s.Ephemerals() {
		out = append(out, e.Text)
	}
	return out
}
