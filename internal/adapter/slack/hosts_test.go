package slack

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/fetch/fetchtest"
)

// TestFileHosts: the bot token goes with file downloads from Slack's file host and from the
// configured API's origin, and to nothing else.
func TestFileHosts(t *testing.T) {
	t.Parallel()
	want := map[string]bool{
		"https://files.slack.com/files-pri/T0-F0/download/notes.txt": true,
		"https://files.slack.com/files-tmb/T0-F0-abc/photo_360.png":  true,
		"http://127.0.0.1:4000/files-pri/T0-F0/notes.txt":            true, // apiUrl's origin
		"http://files.slack.com/files-pri/T0-F0/notes.txt":           false,
		"https://files.slack.com.attacker.example/files-pri/x":       false,
		"http://127.0.0.1:4001/files-pri/T0-F0/notes.txt":            false,
		"https://slack-files.com/T0-F0-0000000000":                   false,
	}
	fetchtest.CheckHosts(t, New(Options{Base: platform.Base{Name: "acme"}, Config: Config{APIURL: "http://127.0.0.1:4000/api/"}}).fetch.Hosts, want)
}
