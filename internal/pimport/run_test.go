package pimport

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// smallOld makes an old data directory with one channel of one line.
func smallOld(t *testing.T) string {
	t.Helper()
	old := filepath.Join(t.TempDir(), "old")
	if err := os.MkdirAll(filepath.Join(old, "C1"), 0o755); err != nil {
		t.Fatal(err)
	}
	line := `{"date":"2025-11-26T10:40:00.000Z","ts":"1764153600.000100","user":"U1","userName":"bea","text":"hi","attachments":[],"isBot":false}` + "\n"
	if err := os.WriteFile(filepath.Join(old, "C1", "log.jsonl"), []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	return old
}

// TestRunClearsAnInterruptedImport: what an import killed half-way left staged for a channel
// is removed when the channel is imported again, and the channel is imported whole.
func TestRunClearsAnInterruptedImport(t *testing.T) {
	t.Parallel()
	old, data := smallOld(t), filepath.Join(t.TempDir(), "data")
	left := filepath.Join(data, "workspace", "channels", "acme", ".import-C1-0123456789ab")
	if err := os.MkdirAll(filepath.Join(left, "attachments"), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(left, "log.jsonl"), []byte("half\n"), 0o644)
	sum, err := Run(context.Background(), Options{Old: old, Data: data, Adapter: "acme"})
	if err != nil {
		t.Fatal(err)
	}
	if len(sum.Channels) != 1 || sum.Channels[0].Outcome != Imported {
		t.Fatalf("channels %+v", sum.Channels)
	}
	if _, err := os.Stat(left); !os.IsNotExist(err) {
		t.Fatalf("the interrupted import's directory is still there: %v", err)
	}
	entries, _ := os.ReadDir(filepath.Join(data, "workspace", "channels", "acme"))
	if len(entries) != 1 || entries[0].Name() != "C1" {
		t.Fatalf("channels/acme holds %v", entries)
	}
}

// TestRunRefuses: what Run will not do, it says before touching anything.
func TestRunRefuses(t *testing.T) {
	t.Parallel()
	old := smallOld(t)
	notOld := t.TempDir()
	os.WriteFile(filepath.Join(notOld, "config.json"), []byte("{}"), 0o644)
	for name, tc := range map[string]struct {
		o    Options
		want string
	}{
		"adapter name": {Options{Old: old, Data: filepath.Join(t.TempDir(), "d"), Adapter: "a/b"}, "not an adapter name"},
		"terminal":     {Options{Old: old, Data: filepath.Join(t.TempDir(), "d"), Adapter: "terminal", AdapterType: "cli"}, "is a cli adapter"},
		"same":         {Options{Old: old, Data: old, Adapter: "acme"}, "is the old data directory"},
		"inside":       {Options{Old: old, Data: filepath.Join(old, "new"), Adapter: "acme"}, "or inside it"},
		"holds it":     {Options{Old: old, Data: filepath.Dir(old), Adapter: "acme"}, "is inside the data directory"},
		"not the old":  {Options{Old: notOld, Data: filepath.Join(t.TempDir(), "d"), Adapter: "acme"}, "does not look like the original mom's"},
		"missing":      {Options{Old: filepath.Join(old, "nope"), Data: filepath.Join(t.TempDir(), "d"), Adapter: "acme"}, "no such file"},
	} {
		_, err := Run(context.Background(), tc.o)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want an error with %q", name, err, tc.want)
		}
		if _, serr := os.Stat(filepath.Join(old, "new")); serr == nil {
			t.Fatalf("%s: wrote inside the old directory", name)
		}
	}
}
