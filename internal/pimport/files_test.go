package pimport

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
)

// TestPlaceFile: a copy never replaces a file, never follows a link, never opens a pipe,
// never reads a file over the limit; a file already there with the same bytes is fine.
func TestPlaceFile(t *testing.T) {
	t.Parallel()
	src, dst := t.TempDir(), t.TempDir()
	secret := filepath.Join(t.TempDir(), "secret")
	os.WriteFile(secret, []byte("SECRET"), 0o600)
	os.WriteFile(filepath.Join(src, "note.txt"), []byte("hello"), 0o644)
	os.WriteFile(filepath.Join(src, "run.sh"), []byte("#!/bin/sh\n"), 0o700)
	os.Symlink(secret, filepath.Join(src, "link"))
	if err := syscall.Mkfifo(filepath.Join(src, "pipe"), 0o644); err != nil {
		t.Fatal(err)
	}
	huge, _ := os.Create(filepath.Join(src, "huge"))
	huge.Truncate(100 << 30) // sparse: costs nothing on disk
	huge.Close()
	s, d := confined.Root(src), confined.Root(dst)

	for _, tc := range []struct {
		name, target string
		want         placed
		why          string
	}{
		{"note.txt", "a/note.txt", placedNew, ""},
		{"note.txt", "a/note.txt", placedSame, ""},
		{"run.sh", "run.sh", placedNew, ""},
		{"link", "link", placedLeft, "symbolic link"},
		{"pipe", "pipe", placedLeft, "named pipe"},
		{"huge", "huge", placedLeft, "is 100 GiB, more than the 1.0 GiB"},
		{"missing", "missing", placedLeft, "no such file"},
	} {
		what, why, err := placeFile(s, tc.name, d, tc.target, maxFile)
		if err != nil || what != tc.want || !strings.Contains(why, tc.why) {
			t.Errorf("%s: got %v %q %v, want %v %q", tc.name, what, why, err, tc.want, tc.why)
		}
	}
	os.WriteFile(filepath.Join(src, "other.txt"), []byte("other"), 0o644)
	if what, _, err := placeFile(s, "other.txt", d, "a/note.txt", maxFile); what != placedKept || err != nil {
		t.Errorf("a different file at the target: %v %v", what, err)
	}
	if b, _ := os.ReadFile(filepath.Join(dst, "a/note.txt")); string(b) != "hello" {
		t.Errorf("the target was replaced: %q", b)
	}
	if st, err := os.Stat(filepath.Join(dst, "run.sh")); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("the script lost its execute bit: %v %v", st, err)
	}
	entries, _ := os.ReadDir(dst)
	for _, e := range entries {
		if e.Name() != "a" && e.Name() != "run.sh" {
			t.Errorf("left in the target: %s", e.Name())
		}
	}
}
