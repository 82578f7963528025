package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWrite(t *testing.T) {
	env := newEnv(t)
	got, _ := mustText(t, NewWrite(), env, map[string]any{"path": "a/b/c.txt", "content": "héllo"})
	if got != "Successfully wrote 6 bytes to a/b/c.txt" {
		t.Errorf("text %q", got)
	}
	if c := readFile(t, filepath.Join(env.Cwd, "a/b/c.txt")); c != "héllo" {
		t.Errorf("file holds %q", c)
	}
}

func TestWriteLargeContent(t *testing.T) {
	env := newEnv(t)
	// 5 MB with quotes, newlines and shell metacharacters: nothing goes through a shell.
	content := strings.Repeat("line with 'quotes' \"and\" $(dollars) `ticks`\n", 5<<20/45)
	abs := filepath.Join(env.Cwd, "deep", "er", "big.txt")
	got, _ := mustText(t, NewWrite(), env, map[string]any{"path": abs, "content": content})
	if want := "Successfully wrote " + itoa(len(content)) + " bytes to " + abs; got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if c := readFile(t, abs); c != content {
		t.Errorf("file holds %d bytes, want %d", len(c), len(content))
	}
}

func TestWriteErrors(t *testing.T) {
	env := newEnv(t)
	if err := os.Mkdir(filepath.Join(env.Cwd, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, _ := mustFail(t, NewWrite(), env, map[string]any{"path": "dir", "content": "x"})
	if !strings.HasPrefix(got, "cannot write dir: ") || !strings.HasSuffix(got, "is a directory") {
		t.Errorf("error %q", got)
	}
}
