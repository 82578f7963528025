package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"strings"
	"testing"

	discordadapter "github.com/mom-agent/mom/internal/adapter/discord"
	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
)

// The conformance suite's driver for Discord (discordPlatform), and the world of the Discord
// tests that still need the binary. Discord's own behaviour tests run in-process in
// internal/adapter/discord.

// The preset guild's cast (fakediscord.NewPreset), by shorter names.
const (
	dBot     = fakediscord.PresetBot
	dGeneral = fakediscord.PresetGeneral
	dAda     = fakediscord.PresetAda // an admin
	dBea     = fakediscord.PresetBea // a colleague
	dAdaDM   = fakediscord.PresetAdaDM
	dBeaDM   = fakediscord.PresetBeaDM
)

// newDiscordFake is the preset guild: two people, a CI bot, a channel and two DMs.
func newDiscordFake(t testing.TB, opts ...fakediscord.Option) *fakediscord.Server {
	s := fakediscord.NewPreset(opts...)
	t.Cleanup(s.Close)
	return s
}

// discordWorld is a data directory whose config has one Discord adapter, "guild", pointed
// at a fake guild (newDiscordFake).
type discordWorld struct {
	*chatWorld
	d *fakediscord.Server
}

func newDiscordWorld(t testing.TB, settings string, opts ...fakediscord.Option) *discordWorld {
	t.Helper()
	d := newDiscordFake(t, opts...)
	dw := &discordWorld{chatWorld: newChatWorld(t, "guild", "Discord", newDiscordPlatformOn(d)), d: d}
	dw.configure(settings)
	return dw
}

// botSays waits for a message from the bot in a channel or thread whose text contains want.
func (dw *discordWorld) botSays(channel, want string) fakediscord.Message {
	dw.t.Helper()
	return apptest.AwaitMessage(dw.t, dw.d.WaitFor, fmt.Sprintf("the bot to say %q in %s", want, channel),
		func() []fakediscord.Message { return dw.d.Messages(channel) },
		func(m fakediscord.Message) bool { return m.Author == dBot && strings.Contains(m.Content, want) })
}

// discordPlatform runs the conformance suite against the Discord adapter and the Discord fake.
type discordPlatform struct {
	d *fakediscord.Server
	socketDrops
}

func newDiscordPlatform(t *testing.T) platform { return newDiscordPlatformOn(newDiscordFake(t)) }

func newDiscordPlatformOn(d *fakediscord.Server) *discordPlatform {
	return &discordPlatform{d: d, socketDrops: socketDrops{f: d}}
}

func (dp *discordPlatform) adapter() string {
	return fmt.Sprintf(`"type": "discord", "botToken": %q, "apiUrl": %q`, dp.d.Token(), dp.d.URL())
}

func (dp *discordPlatform) cast() cast {
	return cast{admin: dAda, user: dBea, group: dGeneral, adminDM: dAdaDM, userDM: dBeaDM}
}

func (dp *discordPlatform) started(t testing.TB, p *proc) {
	dp.d.WaitFor(t, "mom to connect to the gateway", dp.d.Connected)
}

func (dp *discordPlatform) say(t *testing.T, m said) {
	var opts []fakediscord.SayOption
	if m.file != nil {
		opts = append(opts, fakediscord.WithFile(fakediscord.File{Name: m.file.name, Content: m.file.content}))
	}
	dp.d.Say(m.channel, m.from, m.addressed("<@"+dBot+">"), opts...)
}

// shown lists the bot's messages in the channel and, after each message a thread was created
// from, the bot's messages in that thread.
func (dp *discordPlatform) shown(channel string) []string {
	var out []string
	for _, m := range dp.d.Messages(channel) {
		if m.Author == dBot {
			out = append(out, m.Content)
		}
		if m.Thread == "" {
			continue
		}
		for _, r := range dp.d.Messages(m.Thread) {
			if r.Author == dBot {
				out = append(out, r.Content)
			}
		}
	}
	return out
}

func (dp *discordPlatform) deleted(channel string) int {
	n := 0
	for _, c := range dp.d.Calls("DELETE /channels/{id}/messages/{id}") {
		if strings.HasPrefix(c.Path, "/channels/"+channel+"/") && c.Status == 204 {
			n++
		}
	}
	return n
}

func (dp *discordPlatform) uploads(t *testing.T, channel string) []sentFile {
	var out []sentFile
	for _, u := range dp.d.Uploads() {
		if u.ChannelID == channel {
			out = append(out, sentFile{name: u.Filename, content: u.Content})
		}
	}
	return out
}

func (dp *discordPlatform) lacks(feature) string { return "" }

func (dp *discordPlatform) maxText() int { return discordadapter.MaxText }

func (dp *discordPlatform) codeIntact(text string) bool { return balancedFences(text) }

func (dp *discordPlatform) violations() []string { return dp.d.Violations() }

// decide presses the choice's button on the bot's newest message in the channel (or in a
// thread of it) that has one.
func (dp *discordPlatform) decide(t *testing.T, channel, from, choice string) {
	t.Helper()
	var places []string // the channel, then each thread created from one of its messages
	places = append(places, channel)
	for _, m := range dp.d.Messages(channel) {
		if m.Thread != "" {
			places = append(places, m.Thread)
		}
	}
	for _, where := range places {
		msgs := dp.d.Messages(where)
		for i := len(msgs) - 1; i >= 0; i-- {
			for _, b := range dp.d.Buttons(where, msgs[i].ID) {
				if strings.HasSuffix(b.CustomID, ":"+choice) {
					if _, err := dp.d.Press(from, where, msgs[i].ID, b.CustomID); err != nil {
						t.Fatal(err)
					}
					return
				}
			}
		}
	}
	t.Fatalf("no message in %s has a %q button", channel, choice)
}

// refusals are the ephemeral messages the bot answered button presses with.
func (dp *discordPlatform) refusals() []string {
	var out []string
	for _, in := range dp.d.Interactions() {
		for _, r := range in.Responses {
			if r.Type == fakediscord.CallbackChannelMessage && r.Flags&fakediscord.FlagEphemeral != 0 {
				out = append(out, r.Content)
			}
		}
	}
	return out
}
