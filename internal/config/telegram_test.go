package config

import (
	"strings"
	"testing"
)

func TestTelegramOptions(t *testing.T) {
	in := `{"adapters": {"tg": {"type": "telegram", "botToken": "${TG}", "admins": ["1001"], "dm": "everyone",
		"verbosity": "verbose", "apiUrl": "http://127.0.0.1:9/"}}}`
	c, err := Parse([]byte(in), "config.json", env(map[string]string{"TG": "123456789:AAH-secret_XYZ"}))
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	tg := a.Telegram
	if tg == nil || tg.BotToken != "123456789:AAH-secret_XYZ" || tg.Verbosity != Verbose || tg.APIURL != "http://127.0.0.1:9" {
		t.Fatalf("options = %+v", tg)
	}
	if !a.DM.Everyone || a.Admins[0] != "1001" {
		t.Errorf("common keys = %+v %v", a.DM, a.Admins)
	}
	sum := c.Summary()
	if strings.Contains(sum, "AAH-secret") || !strings.Contains(sum, "tg (telegram)") || !strings.Contains(sum, "bot id 123456789") {
		t.Errorf("summary leaks the token or misses the adapter:\n%s", sum)
	}
	c, err = Parse([]byte(`{"adapters": {"tg": {"type": "telegram", "botToken": "1:x"}}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Adapters[0]; a.Telegram.Verbosity != Normal || a.DM.Everyone || len(a.DM.Users) != 0 {
		t.Errorf("defaults = %+v, dm %v; want normal verbosity and DMs closed", a.Telegram, a.DM)
	}
}

func TestTelegramErrors(t *testing.T) {
	checkErrors(t, []errCase{
		{
			name: "missing token",
			in:   `{"adapters": {"tg": {"type": "telegram"}}}`,
			want: `config.json: adapters.tg: missing "botToken": ` + telegramTokenWhat,
		},
		{
			name: "unset variable names the adapter and the variable",
			in:   `{"adapters": {"tg": {"type": "telegram", "botToken": "${TELEGRAM_BOT_TOKEN}"}}}`,
			want: `config.json: adapters.tg.botToken: environment variable TELEGRAM_BOT_TOKEN is not set`,
		},
		{
			name: "token without the id",
			in:   `{"adapters": {"tg": {"type": "telegram", "botToken": "AAH-secret"}}}`,
			want: `config.json: adapters.tg.botToken: does not look like a Telegram bot token (digits, a colon, then the secret); copy ` + telegramTokenWhat,
		},
		{
			name: "token with the URL's bot prefix",
			in:   `{"adapters": {"tg": {"type": "telegram", "botToken": "bot123:AAH"}}}`,
			want: `config.json: adapters.tg.botToken: does not look like a Telegram bot token (digits, a colon, then the secret); copy ` + telegramTokenWhat + ` without the "bot" prefix of API URLs`,
		},
		{
			name: "bad api url",
			in:   `{"adapters": {"tg": {"type": "telegram", "botToken": "1:x", "apiUrl": "api.telegram.org"}}}`,
			want: `config.json: adapters.tg.apiUrl: "api.telegram.org" is not an http:// or https:// URL`,
		},
		{
			name: "unknown key lists the telegram keys",
			in:   `{"adapters": {"tg": {"type": "telegram", "botToken": "1:x", "token": "1:x"}}}`,
			want: `config.json: adapters.tg: unknown key "token"`,
		},
	})
}
