package telegram

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/fetch/fetchtest"
)

// TestFileHosts: files are fetched, with the token in their path, only from the Bot API
// server mom talks to: Telegram's, or the one config.json names.
func TestFileHosts(t *testing.T) {
	t.Parallel()
	for api, want := range map[string]map[string]bool{
		"": {
			"https://api.telegram.org/file/bot1:abc/documents/file_1.pdf": true,
			"http://api.telegram.org/file/bot1:abc/documents/file_1.pdf":  false,
			"https://telegram.org/file/bot1:abc/documents/file_1.pdf":     false,
		},
		"http://127.0.0.1:8081": {
			"http://127.0.0.1:8081/file/bot1:abc/photos/file_2.jpg":       true,
			"https://api.telegram.org/file/bot1:abc/documents/file_1.pdf": false,
			"http://127.0.0.1:8082/file/bot1:abc/photos/file_2.jpg":       false,
		},
	} {
		a, err := New(Options{Base: platform.Base{Name: "tg"}, Config: Config{BotToken: "1:abc", APIURL: api}})
		if err != nil {
			t.Fatal(err)
		}
		t.Run("apiUrl "+api, func(t *testing.T) { fetchtest.CheckHosts(t, a.fetch.Hosts, want) })
	}
}
