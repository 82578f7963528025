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
	m, err := Manifest(`Ops "Bot"`)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range append(append([]string{`name: "Ops \"Bot\""`, "socket_mode_enabled: true"}, scopes...), botEvents...) {
		if !strings.Contains(m, want) {
			t.Errorf("manifest lacks %q", want)
		}
	}
	if _, err := Manifest(strings.Repeat("x", 36)); err == nil {
		t.Error("a name over 35 characters was accepted")
	}
}
