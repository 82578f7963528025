package adapter

import (
	"context"
	"errors"
	"io"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/config"
)

// TestPlatformsAreConsistent: every built-in platform is complete, and none can be mistaken
// for another, in config.json or on mom's command line.
func TestPlatformsAreConsistent(t *testing.T) {
	t.Parallel()
	specs := Builtin().Specs()
	if len(specs) == 0 {
		t.Fatal("no platforms")
	}
	seen := map[platform.Kind]bool{}
	commands := map[string]bool{}
	oneShots, terminals := 0, 0
	for _, s := range specs {
		k := s.Kind()
		switch {
		case k == "":
			t.Errorf("a platform (%q) has no kind", s.Name)
		case seen[k]:
			t.Errorf("%s: two platforms of this kind", k)
		}
		seen[k] = true
		if s.Name == "" || s.New == nil || s.Config.Decode == nil {
			t.Errorf("%s: a name, New and Config.Decode are all needed: %+v", k, s)
		}
		for _, key := range s.Config.Keys {
			if slices.Contains(config.CommonAdapterKeys(), key) || key == "groups" {
				t.Errorf("%s: key %q shadows a common key", k, key)
			}
		}
		if s.OneShot != nil {
			oneShots++
		}
		if s.Config.Terminal {
			terminals++
		}
		for _, c := range s.Commands {
			if c.Name == "" || c.Summary == "" || c.Run == nil || commands[c.Name] {
				t.Errorf("%s: command %q is incomplete or added twice", k, c.Name)
			}
			commands[c.Name] = true
		}
	}
	if oneShots != 1 || terminals != 1 {
		t.Errorf("%d platforms answer one prompt and %d are the terminal; mom run and the keyboard need exactly one", oneShots, terminals)
	}
}

// TestBuildEveryPlatform: each platform builds its adapter from an entry config.json gives it,
// named after the entry, as mom check does (without a store).
func TestBuildEveryPlatform(t *testing.T) {
	t.Parallel()
	c, err := parse([]byte(`{"adapters": {
	  "term": {"type": "cli"},
	  "web": {"type": "web"},
	  "acme": {"type": "slack", "botToken": "xoxb-1", "appToken": "xapp-1"},
	  "guild": {"type": "discord", "botToken": "MTEw.GfAkE0.fake-token"},
	  "tg": {"type": "telegram", "botToken": "123456:ABC-DEF1234ghIkl-zyx57W2v1u123ew11"},
	  `+optionalEntries+`
	}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	r := Builtin()
	built := map[string]bool{}
	for _, e := range c.Adapters {
		a, err := r.Build(e, Env{Stdout: io.Discard, Stderr: io.Discard})
		if err != nil {
			t.Errorf("%s: %v", e.Name, err)
			continue
		}
		if a.Name() != e.Name {
			t.Errorf("%s: the adapter is called %q", e.Name, a.Name())
		}
		built[e.Type] = true
	}
	for _, s := range r.Specs() {
		if !built[string(s.Kind())] {
			t.Errorf("%s: not built; add it to this test's config", s.Kind())
		}
	}
}

// TestBuildRefusesWhatItDoesNotKnow: an entry of a type the registry has no platform for, or
// one made by hand without its platform's settings, is an error rather than a broken adapter.
func TestBuildRefusesWhatItDoesNotKnow(t *testing.T) {
	t.Parallel()
	r := Builtin()
	_, err := r.Build(config.AdapterEntry{Name: "chat", Type: "irc"}, Env{})
	if err == nil || err.Error() != `adapter chat: type "irc" is not available in this version of mom` {
		t.Errorf("unknown type: %v", err)
	}
	if _, err := r.Build(config.AdapterEntry{Name: "acme", Type: "slack"}, Env{}); err == nil || !strings.Contains(err.Error(), "adapter acme") {
		t.Errorf("an entry without settings: %v", err)
	}
}

// TestNames: the system prompt says where mom lives in the words people use.
func TestNames(t *testing.T) {
	t.Parallel()
	r := Builtin()
	names := map[string]string{"cli": "a terminal", "web": "a web chat", "slack": "Slack",
		"discord": "Discord", "telegram": "Telegram", "irc": ""}
	maps.Copy(names, optionalNames())
	for kind, want := range names {
		if got := r.Name(kind); got != want {
			t.Errorf("Name(%q) = %q, want %q", kind, got, want)
		}
	}
}

// TestOneShot: mom run's adapter belongs to the terminal's platform, and says so in the
// entry mom registers it with.
func TestOneShot(t *testing.T) {
	t.Parallel()
	a, p, err := Builtin().OneShot("run", "local", Env{Stdin: strings.NewReader("hi"), Stdout: io.Discard, Stderr: io.Discard})
	if err != nil {
		t.Fatal(err)
	}
	if a.Name() != "run" || p == nil || !p.Terminal {
		t.Errorf("one-shot adapter %q of platform %+v; want run, of the terminal", a.Name(), p)
	}
	if _, _, err := NewRegistry().OneShot("run", "local", Env{}); err == nil {
		t.Error("a registry without a terminal built a one-shot adapter")
	}
}

// TestCommands: the platforms' commands run through the registry; a usage error is marked
// so that mom prints its usage.
func TestCommands(t *testing.T) {
	t.Parallel()
	var manifest Command
	for _, c := range Builtin().Commands() {
		if c.Name == "slack-manifest" {
			manifest = c
		}
	}
	if manifest.Run == nil {
		t.Fatal("no slack-manifest command")
	}
	var out strings.Builder
	if err := manifest.Run(context.Background(), []string{"--name", "Helper"}, &out); err != nil || !strings.Contains(out.String(), `name: "Helper"`) {
		t.Errorf("manifest: %v\n%s", err, out.String())
	}
	err := manifest.Run(context.Background(), []string{"extra"}, io.Discard)
	if !errors.Is(err, ErrUsage) || !strings.HasPrefix(err.Error(), "usage: mom slack-manifest takes no arguments besides --name") {
		t.Errorf("a stray argument: %v", err)
	}
}
