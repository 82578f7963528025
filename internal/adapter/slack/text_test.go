package slack

import (
	"github.com/mom-agent/mom/internal/adapter/platform"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
)

func testAdapter() *Adapter {
	a := New(Options{Base: platform.Base{Name: "acme"}})
	a.dir.byID["U1"] = chat.User{ID: "U1", Username: "ada"}
	a.dir.chans["C1"] = chat.Channel{ID: "C1", Name: "general"}
	return a
}

func TestFromSlack(t *testing.T) {
	a := testAdapter()
	for _, tt := range []struct {
		in, want  string
		mentioned bool
	}{
		{"<@UBOT> hello", "hello", true},
		{"hey <@UBOT|mom>, ask <@U1>", "hey , ask @ada", true},
		{"<@U9|zed> and <@U8>", "@zed and @U8", false},
		{"see <#C1> and <#C2|random>", "see #general and #random", false},
		{"<!here> <!channel> <!subteam^S1|@ops>", "@here @channel @ops", false},
		{"<https://x.io/a?b=1&amp;c=2|the docs> <https://y.io>", "[the docs](https://x.io/a?b=1&c=2) https://y.io", false},
		{"<mailto:a@b.io|a@b.io>", "a@b.io", false},
		{"1 &lt; 2 &amp;&amp; 3 &gt; 2", "1 < 2 && 3 > 2", false},
		{"broken <tag", "broken <tag", false},
	} {
		got, m := a.fromSlack(tt.in, "UBOT")
		if got != tt.want || m != tt.mentioned {
			t.Errorf("fromSlack(%q) = %q, %v; want %q, %v", tt.in, got, m, tt.want, tt.mentioned)
		}
	}
}

func TestTimestamps(t *testing.T) {
	ts, err := parseTS("1700000000.000100")
	if err != nil || ts.UnixMicro() != 1700000000000100 {
		t.Fatalf("parseTS = %v, %v", ts, err)
	}
	if got := formatTS(ts); got != "1700000000.000100" {
		t.Errorf("formatTS = %q", got)
	}
	for _, bad := range []string{"", "abc", "1.x"} {
		if _, err := parseTS(bad); err == nil {
			t.Errorf("parseTS(%q) accepted", bad)
		}
	}
}

func TestManifest(t *testing.T) {
	m, err := Manifest(`Ops "Bot"`, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(append([]string{`name: "Ops \"Bot\""`, "socket_mode_enabled: true",
		"interactivity:\n    is_enabled: true", "slash_commands:\n    - command: /ops-bot\n",
		`usage_hint: "help | stop | new | compact [focus] | model [name] | cost | status"`, "should_escape: false"},
		scopes...), botEvents...) {
		if !strings.Contains(m, want) {
			t.Errorf("manifest lacks %q:\n%s", want, m)
		}
	}
	if _, err := Manifest(strings.Repeat("x", 36), ""); err == nil {
		t.Error("a name over 35 characters was accepted")
	}
	if m, err := Manifest("mom", "/ask-mom"); err != nil || !strings.Contains(m, "command: /ask-mom\n") {
		t.Errorf("a chosen command: %v\n%s", err, m)
	}
	for _, bad := range []string{"mom", "/Mom", "/ask mom", "/" + strings.Repeat("x", 33)} {
		if _, err := Manifest("mom", bad); err == nil {
			t.Errorf("the slash command %q was accepted", bad)
		}
	}
}

func TestCommandFor(t *testing.T) {
	for name, want := range map[string]string{
		"mom": "/mom", "Helper Bot": "/helper-bot", "Ops \"Bot\"": "/ops-bot", "🤖": "/mom", "  A  B ": "/a--b",
		strings.Repeat("abcdefgh ", 5): "/abcdefgh-abcdefgh-abcdefgh-abcd",
	} {
		if got := CommandFor(name); got != want || !slashName.MatchString(got) {
			t.Errorf("CommandFor(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestCommandText(t *testing.T) {
	for text, want := range map[string]string{
		"": "/help", "  ": "/help", "cost": "/cost", "/cost": "/cost", "Model local": "/model local",
		"compact  keep the plan ": "/compact keep the plan", "stop": "/stop",
	} {
		if got, ok := commandText(text); !ok || got != want {
			t.Errorf("commandText(%q) = %q, %v; want %q", text, got, ok, want)
		}
	}
	for _, text := range []string{"what is up", "costs", "@mom help"} {
		if got, ok := commandText(text); ok {
			t.Errorf("commandText(%q) = %q; want no command", text, got)
		}
	}
}
