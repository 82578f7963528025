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

// The Acme workspace (fakeslack.NewAcme), by the short names the tests use.
const (
	slackBot, general = fakeslack.AcmeBot, fakeslack.AcmeGeneral
	adaID, adaDM      = fakeslack.AcmeAda, fakeslack.AcmeAdaDM // an admin and her DM with mom
	beaID, beaDM      = fakeslack.AcmeBea, fakeslack.AcmeBeaDM // a colleague and her DM with mom
)

// slackWorld is a data directory whose config has one Slack adapter, "acme", pointed at a
// fake Acme workspace: two people, a channel and two DMs.
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
	s := fakeslack.NewAcme(opts...)
	t.Cleanup(s.Close)
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

// run starts mom and waits until it is connected to Socket Mode. It returns how much mom had
// logged before this start, the mark for waitLogged.
func (sw *slackWorld) run() (mark int) {
	sw.t.Helper()
	mark = len(sw.Log())
	sw.Start()
	sw.slack.WaitFor(sw.t, "mom to connect to Socket Mode", sw.slack.Connected)
	return mark
}

// waitLogged waits until mom has logged s n times since the log was mark bytes long, so that
// a wait after a restart does not count what the mom before it logged.
func (sw *slackWorld) waitLogged(mark int, s string, n int) {
	sw.t.Helper()
	apptest.Eventually(sw.t, fmt.Sprintf("mom to log %q %d times", s, n),
		func() bool { return strings.Count(sw.Log()[mark:], s) >= n })
}

// botSays is the fake's WaitBotSays on the test's t: the bot's message in channel (thread ""
// for the top level) that contains want.
func (sw *slackWorld) botSays(channel, thread, want string) fakeslack.Message {
	sw.t.Helper()
	return sw.slack.WaitBotSays(sw.t, channel, thread, want)
}

// botShows waits until a top-level message of the bot in channel reads exactly text (a status
// message that merely contains it while the answer streams does not count) and returns it.
func (sw *slackWorld) botShows(channel, text string) fakeslack.Message {
	sw.t.Helper()
	return apptest.AwaitMessage(sw.t, sw.slack.WaitFor, fmt.Sprintf("the bot to show exactly %q in %s", text, channel),
		func() []fakeslack.Message { return sw.slack.Messages(channel) },
		func(m fakeslack.Message) bool { return m.User == slackBot && m.Text == text })
}

// botReplies returns the bot's replies in a thread.
func (sw *slackWorld) botReplies(channel, thread string) []string {
	var out []string
	for _, m := range sw.slack.Replies(channel, thread) {
		if m.User == slackBot {
			out = append(out, m.Text)
		}
	}
	return out
}
