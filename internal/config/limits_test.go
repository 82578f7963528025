package config

import (
	"strings"
	"testing"
)

// limitsPlatform is a platform with nothing of its own, for entries with "limits".
var limitsPlatform = Platform{Type: "chat"}

func TestLimitsLevels(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{
  "limits": {"dailyUsd": 20, "monthlyUsd": 300, "perUserDailyUsd": 2, "dailyTokens": 5000000, "timeZone": "Europe/Vienna"},
  "adapters": {
    "a": {"type": "chat", "limits": {"dailyUsd": 10.5, "timeZone": "America/New_York"}},
    "b": {"type": "chat"},
  },
  "channels": {"a/C1": {"limits": {"dailyUsd": 5, "perUserDailyUsd": 1}}},
}`), "config.json", noEnv, limitsPlatform)
	if err != nil {
		t.Fatal(err)
	}
	l := c.LimitsFor("a", "C1")
	if l.Workspace.DailyUSD != 20 || l.Workspace.MonthlyUSD != 300 || l.Workspace.DailyTokens != 5000000 {
		t.Errorf("workspace caps = %+v", l.Workspace)
	}
	if l.Adapter.DailyUSD != 10.5 || l.Adapter.MonthlyUSD != 0 || l.Channel.DailyUSD != 5 {
		t.Errorf("each level should keep its own caps: adapter %+v, channel %+v", l.Adapter, l.Channel)
	}
	if l.PerUserDailyUSD != 1 {
		t.Errorf("per-person cap = %v, want the channel's 1", l.PerUserDailyUSD)
	}
	for name, got := range map[string]string{
		"workspace": l.Workspace.Location().String(), "adapter": l.Adapter.Location().String(), "channel": l.Channel.Location().String(),
	} {
		want := "America/New_York"
		if name == "workspace" {
			want = "Europe/Vienna"
		}
		if got != want {
			t.Errorf("%s's days start in %s, want %s", name, got, want)
		}
	}
	if l := c.LimitsFor("b", "X"); l.PerUserDailyUSD != 2 || l.Adapter.Caps() || l.Channel.Caps() || l.Channel.Location().String() != "Europe/Vienna" {
		t.Errorf("a channel of b inherits only the per-person cap and the zone: %+v", l)
	}
	zones := c.LimitZones()
	if len(zones) != 2 || zones[0].String() != "Europe/Vienna" || zones[1].String() != "America/New_York" {
		t.Errorf("zones = %v", zones)
	}
	sum := c.Summary()
	for _, want := range []string{
		"caps:     in all channels together: $20 a day, $300 a month, 5,000,000 tokens a day, $2 a day per person; days start at 00:00 Europe/Vienna\n",
		"caps:     in a's channels together: $10.50 a day; days start at 00:00 America/New_York\n",
		"caps:     in a/C1: $5 a day, $1 a day per person; days start at 00:00 America/New_York\n",
	} {
		if !strings.Contains(sum, want) {
			t.Errorf("summary lacks %q:\n%s", want, sum)
		}
	}
	if strings.Contains(sum, "in b's") {
		t.Errorf("an adapter without limits has no line:\n%s", sum)
	}
}

func TestLimitsNone(t *testing.T) {
	t.Parallel()
	c, err := Parse([]byte(`{}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	l := c.LimitsFor("a", "b")
	if l.Workspace.Caps() || l.PerUserDailyUSD != 0 || l.Channel.Location().String() != "UTC" {
		t.Errorf("no limits = %+v", l)
	}
	if strings.Contains(c.Summary(), "caps:") {
		t.Errorf("summary without limits:\n%s", c.Summary())
	}
}

func TestLimitsErrors(t *testing.T) {
	t.Parallel()
	checkErrors(t, []errCase{
		{"zero", `{"limits": {"dailyUsd": 0}}`, `config.json: limits.dailyUsd: must be above 0 (US dollars; leave the key out for no cap), got 0`},
		{"negative", `{"limits": {"monthlyUsd": -5}}`, `config.json: limits.monthlyUsd: must be above 0`},
		{"string", `{"limits": {"perUserDailyUsd": "2"}}`, `config.json: limits.perUserDailyUsd: expected a number, got a string`},
		{"tokens fraction", `{"limits": {"dailyTokens": 1.5}}`, `config.json: limits.dailyTokens: expected a whole number, got 1.5`},
		{"tokens zero", `{"limits": {"dailyTokens": 0}}`, `config.json: limits.dailyTokens: must be at least 1, got 0`},
		{"zone", `{"limits": {"timeZone": "Europe/Viena"}}`, `config.json: limits.timeZone: "Europe/Viena" is not a time zone this machine knows; use an IANA name like "Europe/Vienna", or "UTC"`},
		{"local", `{"limits": {"timeZone": "Local"}}`, `config.json: limits.timeZone: "Local" is no time zone name`},
		{"typo", `{"limits": {"dailyUSD": 5}}`, `config.json: limits: unknown key "dailyUSD"; did you mean "dailyUsd"?`},
		{"not an object", `{"limits": 20}`, `config.json: limits: expected an object ({...}), got a number`},
	})
	for _, tt := range []errCase{
		{"adapter", `{"adapters": {"a": {"type": "chat", "limits": {"dailyUsd": -1}}}}`, `config.json: adapters.a.limits.dailyUsd: must be above 0`},
		{"channel", `{"adapters": {"a": {"type": "chat"}}, "channels": {"a/C1": {"limits": {"timeZone": "Nowhere"}}}}`, `config.json: channels["a/C1"].limits.timeZone: "Nowhere" is not a time zone`},
	} {
		_, err := Parse([]byte(tt.in), "config.json", noEnv, limitsPlatform)
		if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("%s: error:\n%v\nwant it to start with:\n%s", tt.name, err, tt.want)
		}
	}
}

func TestUSD(t *testing.T) {
	t.Parallel()
	for v, want := range map[float64]string{20: "$20", 2.5: "$2.50", 1000: "$1,000", 0.005: "$0.005", 10.499: "$10.50"} {
		if got := USD(v); got != want {
			t.Errorf("USD(%v) = %q, want %q", v, got, want)
		}
	}
}
