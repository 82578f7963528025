package tools

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

type upload struct{ path, title string }

func TestAttach(t *testing.T) {
	env := newEnv(t)
	var got []upload
	env.Upload = func(ctx context.Context, hostPath, title string) error {
		got = append(got, upload{hostPath, title})
		return nil
	}
	writeFile(t, filepath.Join(env.Cwd, "out", "chart.png"), "png")
	text, _ := mustText(t, NewAttach(), env, map[string]any{"path": "out/chart.png"})
	if text != "Attached file: chart.png" {
		t.Errorf("text %q", text)
	}
	text, _ = mustText(t, NewAttach(), env, map[string]any{"path": filepath.Join(env.Cwd, "out/chart.png"), "title": "Sales chart"})
	if text != "Attached file: Sales chart" {
		t.Errorf("text %q", text)
	}
	want := filepath.Join(env.ScratchDir, "out", "chart.png")
	if len(got) != 2 || got[0] != (upload{want, "chart.png"}) || got[1] != (upload{want, "Sales chart"}) {
		t.Errorf("uploads %+v, want host path %s", got, want)
	}
}

func TestAttachErrors(t *testing.T) {
	env := newEnv(t)
	if got, _ := mustFail(t, NewAttach(), env, map[string]any{"path": "x"}); got != "attaching files is not supported here" {
		t.Errorf("no Upload: %q", got)
	}
	env.Upload = func(ctx context.Context, hostPath, title string) error { return errors.New("slack said no") }
	os.Mkdir(filepath.Join(env.Cwd, "dir"), 0o755)
	writeFile(t, filepath.Join(env.Cwd, "f.txt"), "x")
	for _, tc := range []struct{ path, want string }{
		{"missing.txt", "File not found: missing.txt"},
		{"dir", "cannot attach dir: it is not a regular file"},
		{"f.txt", "uploading f.txt failed: slack said no"},
	} {
		if got, _ := mustFail(t, NewAttach(), env, map[string]any{"path": tc.path}); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.path, got, tc.want)
		}
	}
}
