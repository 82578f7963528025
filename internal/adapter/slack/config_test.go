package slack

import (
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/config/configtest"
	"strings"
	"testing"
)

func TestSlackOptions(t *testing.T) {
	in := `{"adapters": {"acme": {"type": "slack", "botToken": "${BOT}", "appToken": "xapp-1", "admins": ["U1"],
		"replyIn": "channel", "verbosity": "quiet", "apiUrl": "http://127.0.0.1:9/api/"}}}`
	c, err := config.Parse([]byte(in), "config.json", configtest.Env(map[string]string{"BOT": "xoxb-secret"}), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	s, _ := a.Options.(*Config)
	if s == nil || s.BotToken != "xoxb-secret" || s.AppToken != "xapp-1" || s.ReplyIn != config.ReplyInChannel ||
		s.Verbosity != config.Quiet || s.APIURL != "http://127.0.0.1:9/api/" {
		t.Fatalf("options = %+v", s)
	}
	if a.DM.Everyone || len(a.DM.Users) != 0 {
		t.Errorf("Slack DMs default to %v; want none", a.DM)
	}
	sum := c.Summary()
	if strings.Contains(sum, "xoxb-secret") || !strings.Contains(sum, "acme (slack)") {
		t.Errorf("summary leaks the token or misses the adapter:\n%s", sum)
	}

	c, err = config.Parse([]byte(`{"adapters": {"acme": {"type": "slack", "botToken": "xoxb-1", "appToken": "xapp-1"}}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	if s := c.Adapters[0].Options.(*Config); s.ReplyIn != config.ReplyInThread || s.Verbosity != config.Normal {
		t.Errorf("defaults = %+v; want thread, normal", s)
	}
}

func TestSlackErrors(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{
			name: "missing tokens",
			in:   `{"adapters": {"acme": {"type": "slack"}}}`,
			want: `config.json: adapters.acme: missing "botToken": the bot token (xoxb-…, from OAuth & Permissions)` + "\n" +
				`config.json: adapters.acme: missing "appToken": the app-level token (xapp-…, from Basic Information → App-Level Tokens, scope connections:write)`,
		},
		{
			name: "unset variable names the adapter and the variable",
			in:   `{"adapters": {"acme": {"type": "slack", "botToken": "${SLACK_BOT_TOKEN}", "appToken": "xapp-1"}}}`,
			want: `config.json: adapters.acme.botToken: environment variable SLACK_BOT_TOKEN is not set`,
		},
		{
			name: "swapped tokens",
			in:   `{"adapters": {"acme": {"type": "slack", "botToken": "xapp-1", "appToken": "xoxb-1"}}}`,
			want: `config.json: adapters.acme.botToken: holds a xapp-… token, but "botToken" takes the bot token (xoxb-…, from OAuth & Permissions)` + "\n" +
				`config.json: adapters.acme.appToken: holds a xoxb-… token, but "appToken" takes the app-level token (xapp-…, from Basic Information → App-Level Tokens, scope connections:write)`,
		},
		{
			name: "bad reply placement",
			in:   `{"adapters": {"acme": {"type": "slack", "botToken": "xoxb-1", "appToken": "xapp-1", "replyIn": "dm"}}}`,
			want: `config.json: adapters.acme.replyIn: "dm" is not a valid reply placement (use one of: thread, channel)`,
		},
		{
			name: "bad api url",
			in:   `{"adapters": {"acme": {"type": "slack", "botToken": "xoxb-1", "appToken": "xapp-1", "apiUrl": "localhost:9"}}}`,
			want: `config.json: adapters.acme.apiUrl: "localhost:9" is not an http:// or https:// URL`,
		},
		{
			name: "unknown key lists the slack keys",
			in:   `{"adapters": {"acme": {"type": "slack", "botToken": "xoxb-1", "appToken": "xapp-1", "verbosty": "quiet"}}}`,
			want: `config.json: adapters.acme: unknown key "verbosty"; did you mean "verbosity"? (known keys: type, busy, admins, dm, approvals, model, limits, groups, botToken, appToken, apiUrl, replyIn, verbosity)`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := config.Parse([]byte(tt.in), "config.json", configtest.Env(nil), configPlatform())
			if err == nil || err.Error() != tt.want {
				t.Errorf("error:\n%v\nwant:\n%s", err, tt.want)
			}
		})
	}
}

// TestTemplateSlackExampleIsValid: uncommenting Slack's example in the first-run template gives
// a config that loads once the two variables are set.
func TestTemplateSlackExampleIsValid(t *testing.T) {
	tmpl := Platform().Template.Text
	start := strings.Index(tmpl, `// "slack-acme": {`)
	if start < 0 {
		t.Fatal("the template has no Slack example")
	}
	end := strings.Index(tmpl[start:], "// },")
	if end < 0 {
		t.Fatal("the template's Slack example does not end")
	}
	var b strings.Builder
	for _, line := range strings.Split(tmpl[start:start+end+len("// },")], "\n") {
		line = strings.TrimSpace(line)
		b.WriteString(strings.TrimPrefix(line, "// ") + "\n")
	}
	in := `{"adapters": {` + b.String() + `}}`
	c, err := config.Parse([]byte(in), "config.json", configtest.Env(map[string]string{"SLACK_BOT_TOKEN": "xoxb-1", "SLACK_APP_TOKEN": "xapp-1"}), configPlatform())
	if err != nil {
		t.Fatalf("%v\n%s", err, in)
	}
	if a := c.Adapters[0]; a.Name != "slack-acme" || a.Options.(*Config).BotToken != "xoxb-1" {
		t.Errorf("adapter = %+v", a)
	}
}
