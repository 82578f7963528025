package discord

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/fetch/fetchtest"
)

// TestFileHosts: attachments are fetched from Discord's CDN (and the configured API's origin,
// where the fake serves them), from nowhere else.
func TestFileHosts(t *testing.T) {
	t.Parallel()
	want := map[string]bool{
		"https://cdn.discordapp.com/attachments/1/2/notes.txt?ex=1&is=2&hm=3&":  true,
		"https://media.discordapp.net/attachments/1/2/photo.png?ex=1&is=2&hm=3": true,
		"http://127.0.0.1:4000/attachments/1/2/notes.txt":                       true,
		"http://cdn.discordapp.com/attachments/1/2/notes.txt":                   false,
		"https://cdn.discordapp.com.attacker.example/attachments/1/2/a":         false,
		"http://169.254.169.254/latest/meta-data/":                              false,
	}
	fetchtest.CheckHosts(t, New(Options{Base: platform.Base{Name: "discord"}, Config: Config{APIURL: "http://127.0.0.1:4000/api"}}).fetch.Hosts, want)
}
