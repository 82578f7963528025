package adapter

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/config"
)

const (
	tgToken      = `"botToken": "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"`
	discordToken = `"botToken": "MTEw.GfAkE0.fake-token"`
	slackTokens  = `"botToken": "xoxb-1", "appToken": "xapp-1"`
)

// TestGroupPolicyDefaults: closed to strangers where anyone can add the bot to a group of
// their own (Telegram, Discord), open where the platform admits only its own people (Slack,
// the web chat); the terminal has no groups and no "groups" key.
func TestGroupPolicyDefaults(t *testing.T) {
	c, err := parse([]byte(`{"adapters": {
	  "tg": {"type": "telegram", `+tgToken+`},
	  "dc": {"type": "discord", `+discordToken+`},
	  "sl": {"type": "slack", `+slackTokens+`},
	  "web": {"type": "web"},
	  "term": {"type": "cli"},
	}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]config.GroupPolicy{
		"tg": {WhereAdmins: true}, "dc": {WhereAdmins: true},
		"sl": {Everyone: true}, "web": {Everyone: true}, "term": {},
	} {
		a, _ := c.AdapterEntry(name)
		if !reflect.DeepEqual(a.Groups, want) {
			t.Errorf("%s: groups = %+v, want %+v", name, a.Groups, want)
		}
	}
}

func TestGroupPolicyValues(t *testing.T) {
	c, err := parse([]byte(`{"adapters": {
	  "a": {"type": "telegram", `+tgToken+`, "groups": "everyone"},
	  "b": {"type": "telegram", `+tgToken+`, "groups": "none"},
	  "c": {"type": "slack", `+slackTokens+`, "groups": "admins"},
	  "d": {"type": "discord", `+discordToken+`, "groups": ["1200000000000000001", "1300000000000000001"]},
	  "e": {"type": "telegram", `+tgToken+`, "groups": []},
	}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"a": "everyone", "b": "none", "c": "where an admin is a member",
		"d": "only 1200000000000000001, 1300000000000000001", "e": "none",
	} {
		a, _ := c.AdapterEntry(name)
		if got := a.Groups.String(); got != want {
			t.Errorf("%s: groups = %q, want %q", name, got, want)
		}
	}
}

func TestGroupPolicyErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"type": "telegram", ` + tgToken + `, "groups": "all"}`,
			`adapters.t.groups: "all" is not valid (use "everyone", "none", "admins" (groups where an admin is a member) or a list of group or channel ids like ["-1001234567890"])`},
		{`{"type": "slack", ` + slackTokens + `, "groups": true}`,
			`adapters.t.groups: expected "everyone", "none", "admins" (groups where an admin is a member) or a list of group or channel ids like ["C0123ABCD"], got true/false`},
		{`{"type": "discord", ` + discordToken + `, "groups": ["1", 2]}`,
			`adapters.t.groups[1]: expected a string, got a number`},
		{`{"type": "web", "groups": "admins"}`,
			`adapters.t.groups: "admins" cannot work here: everyone with the web chat's token is in every one of its channels (use "everyone", "none" or a list of ids)`},
		{`{"type": "cli", "groups": "none"}`,
			`adapters.t: unknown key "groups" (known keys: type, busy, admins, dm, approvals, model, limits)`},
	}
	for _, tt := range tests {
		_, err := parse([]byte(`{"adapters": {"t": `+tt.in+`}}`), "config.json", noEnv)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

// TestAccessWarnings: Telegram or Discord without admins, under "admins", refuse every group;
// mom check and the start-up log say so. Other settings warn of nothing.
func TestAccessWarnings(t *testing.T) {
	c, err := parse([]byte(`{"adapters": {
	  "tg": {"type": "telegram", `+tgToken+`},
	  "dc": {"type": "discord", `+discordToken+`, "admins": ["123"]},
	  "dc2": {"type": "discord", `+discordToken+`, "groups": "none"},
	  "sl": {"type": "slack", `+slackTokens+`},
	}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	w := c.AccessWarnings()
	if len(w) != 1 || !strings.HasPrefix(w[0], `adapter tg has no "admins", so mom refuses every group`) ||
		!strings.Contains(w[0], `"groups" is "admins"`) || !strings.Contains(w[0], "the default") || !strings.Contains(w[0], `"123456789"`) {
		t.Errorf("warnings = %q", w)
	}
}

func TestSummaryShowsGroups(t *testing.T) {
	c, err := parse([]byte(`{"adapters": {
	  "tg": {"type": "telegram", `+tgToken+`, "admins": ["42"]},
	  "term": {"type": "cli"},
	}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	s := c.Summary()
	if !strings.Contains(s, "  tg (telegram): DMs from none; groups: where an admin is a member; admins 42; when busy: reject") {
		t.Errorf("summary:\n%s", s)
	}
	if strings.Contains(s, "term (cli): DMs from everyone; groups") {
		t.Errorf("the terminal has no groups to describe:\n%s", s)
	}
}
