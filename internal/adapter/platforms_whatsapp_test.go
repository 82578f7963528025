//go:build !nowhatsapp

package adapter

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mom-agent/mom/internal/store"
)

// optionalEntries are config.json entries of the optional platforms this build has, for
// TestBuildEveryPlatform: a WhatsApp adapter, which needs no settings of its own.
const optionalEntries = `"wa": {"type": "whatsapp"},`

// firstRunGolden is the first-run config.json of this build, and firstRunAdd the platforms
// mom's note after writing it says how to add.
const (
	firstRunGolden = "testdata/firstrun-config.golden"
	firstRunAdd    = "Slack, Discord, Telegram or WhatsApp"
)

// optionalNames are what the system prompt calls the optional platforms' adapters.
func optionalNames() map[string]string { return map[string]string{"whatsapp": "WhatsApp"} }

// TestBuildWhatsAppTouchesNothing: building a WhatsApp adapter from its entry, as mom check and
// the start-up do before anything connects, neither dials WhatsApp nor opens a device store:
// both wait for Start. Its store would appear under <data-dir>/whatsapp/.
func TestBuildWhatsAppTouchesNothing(t *testing.T) {
	t.Parallel()
	c, err := parse([]byte(`{"adapters": {"wa": {"type": "whatsapp"}}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	for _, env := range []Env{{}, {Store: st, Stdout: io.Discard, Stderr: io.Discard}} {
		a, err := Builtin().Build(c.Adapters[0], env)
		if err != nil || a.Name() != "wa" {
			t.Fatalf("Build = %v, %v", a, err)
		}
	}
	if _, err := os.Lstat(filepath.Join(dir, "whatsapp")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("building the adapter made %s/whatsapp (%v); the device store is opened when it starts", dir, err)
	}
}

// TestWhatsAppIsLast: WhatsApp follows the platforms every build has, in the registry and so
// in mom's usage, and brings `mom whatsapp-link`.
func TestWhatsAppIsLast(t *testing.T) {
	t.Parallel()
	specs := Builtin().Specs()
	if k := specs[len(specs)-1].Kind(); k != "whatsapp" {
		t.Errorf("the last platform is %s", k)
	}
	if !slices.ContainsFunc(Builtin().Commands(), func(c Command) bool { return c.Name == "whatsapp-link" }) {
		t.Error("no whatsapp-link command")
	}
	if _, ok := Builtin().Lookup("whatsapp"); !ok {
		t.Error("no whatsapp platform")
	}
}
