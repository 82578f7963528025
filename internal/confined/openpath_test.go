//go:build linux

package confined

import (
	"errors"
	"testing"
)

// TestOpenPath: a descriptor to hand to bubblewrap is had only for a real directory or file,
// never for a link or through one.
func TestOpenPath(t *testing.T) {
	t.Parallel()
	ws, _ := plant(t)
	ch := ws.Join("channels", "a", "c")
	must(t, ch.WriteFile("log.jsonl", nil, 0o644))
	for _, tc := range []struct {
		name string
		dir  bool
		ok   bool
	}{
		{"channels/a/c", true, true},
		{"channels/a/c/log.jsonl", false, true},
		{"channels/a/c/log.jsonl", true, false},      // not a directory
		{"channels/a/c", false, false},               // not a file
		{"events", true, false},                      // a link to a directory outside
		{"MEMORY.md", false, false},                  // a link to a file outside
		{"channels/a/c/attachments/x", false, false}, // through a link
	} {
		f, err := ws.OpenPath(tc.name, tc.dir)
		if tc.ok != (err == nil) {
			t.Errorf("OpenPath(%q, dir %v): %v", tc.name, tc.dir, err)
		}
		if err == nil {
			f.Close()
		} else if !errors.Is(err, ErrRefused) {
			t.Errorf("OpenPath(%q): %v, want a refusal", tc.name, err)
		}
	}
}
