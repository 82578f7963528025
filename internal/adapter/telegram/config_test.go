package telegram

import (
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/config/configtest"
	"strings"
	"testing"
)

func TestTelegramOptions(t *testing.T) {
	in := `{"adapters": {"tg": {"type": "telegram", "botToken": "${TG}", "admins": ["1001"], "dm": "everyone",
		"verbosity": "verbose", "apiUrl": "http://127.0.0.1:9/"}}}`
	c, err := config.Parse([]byte(in), "config.json", configtest.Env(map[string]string{"TG": "123456789:AAH-secret_XYZ"}), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	tg, _ := a.Options.(*Config)
	if tg == nil || tg.BotToken != "123456789:AAH-secret_XYZ" || tg.Verbosity != config.Verbose || tg.APIURL != "http://127.0.0.1:9" {
		t.Fatalf("options = %+v", tg)
	}
	if !a.DM.Everyone || a.Admins[0] != "1001" {
		t.Errorf("common keys = %+v %v", a.DM, a.Admins)
	}
	sum := c.Summary()
	if strings.Contains(sum, "AAH-secret") || !strings.Contains(sum, "tg (telegram)") || !strings.Contains(sum, "bot id 123456789") {
		t.Errorf("summary leaks the token or misses the adapter:\n%s", sum)
	}
	c, err = config.Parse([]byte(`{"adapters": {"tg": {"type": "telegram", "botToken": "1:x"}}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Adapters[0]; a.Options.(*Config).Verbosity != config.Normal || a.DM.Everyone || len(a.DM.Users) != 0 {
		t.Errorf("defaults = %+v, dm %v; want normal verbosity and DMs closed", a.Options, a.DM)
	}
}

func TestTelegramErrors(t *testing.T) {
	configtest.CheckErrors(t, []config.Platform{configPlatform()}, []configtest.ErrCase{
		{
			Name: "missing token",
			In:   `{"adapters": {"tg": {"type": "telegram"}}}`,
			Want: `config.json: adapters.tg: missing "botToken": ` + tokenWhat,
		},
		{
			Name: "unset variable names the adapter and the variable",
			In:   `{"adapters": {"tg": {"type": "telegram", "botToken": "${TELEGRAM_BOT_TOKEN}"}}}`,
			Want: `config.json: adapters.tg.botToken: environment variable TELEGRAM_BOT_TOKEN is not set`,
		},
		{
			Name: "token without the id",
			In:   `{"adapters": {"tg": {"type": "telegram", "botToken": "AAH-secret"}}}`,
			Want: `config.json: adapters.tg.botToken: does not look like a Telegram bot token (digits, a colon, then the secret); copy ` + tokenWhat,
		},
		{
			Name: "token with the URL's bot prefix",
			In:   `{"adapters": {"tg": {"type": "telegram", "botToken": "bot123:AAH"}}}`,
			Want: `config.json: adapters.tg.botToken: does not look like a Telegram bot token (digits, a colon, then the secret); copy ` + tokenWhat + ` without the "bot" prefix of API URLs`,
		},
		{
			Name: "bad api url",
			In:   `{"adapters": {"tg": {"type": "telegram", "botToken": "1:x", "apiUrl": "api.telegram.org"}}}`,
			Want: `config.json: adapters.tg.apiUrl: "api.telegram.org" is not an http:// or https:// URL`,
		},
		{
			Name: "unknown key lists the telegram keys",
			In:   `{"adapters": {"tg": {"type": "telegram", "botToken": "1:x", "token": "1:x"}}}`,
			Want: `config.json: adapters.tg: unknown key "token"`,
		},
	})
}
