package tools

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
)

// upload is what an Upload callback was handed, with the content read at that moment.
type upload struct{ name, title, path, content string }

func recordUploads(env *Env, got *[]upload) {
	env.Upload = func(ctx context.Context, f chat.File) error {
		b, err := io.ReadAll(io.NewSectionReader(f.Content, 0, f.Size))
		if err != nil {
			return err
		}
		*got = append(*got, upload{f.Name, f.Title, f.Path, string(b)})
		return nil
	}
}

func TestAttach(t *testing.T) {
	env := newEnv(t)
	var got []upload
	recordUploads(env, &got)
	writeFile(t, filepath.Join(env.Cwd, "out", "chart.png"), "png")
	text, _ := mustText(t, NewAttach(), env, map[string]any{"path": "out/chart.png"})
	if text != "Attached file: chart.png" {
		t.Errorf("text %q", text)
	}
	text, _ = mustText(t, NewAttach(), env, map[string]any{"path": filepath.Join(env.Cwd, "out/chart.png"), "title": "Sales chart"})
	if text != "Attached file: Sales chart" {
		t.Errorf("text %q", text)
	}
	want := filepath.Join(env.Scratch.Path(), "out", "chart.png")
	if len(got) != 2 || got[0] != (upload{"chart.png", "chart.png", want, "png"}) || got[1] != (upload{"chart.png", "Sales chart", want, "png"}) {
		t.Errorf("uploads %+v, want chart.png at %s", got, want)
	}
}

// TestAttachSendsWhatWasChecked swaps the file for a link to a secret while the upload is
// under way, as a command running at the same time could: what is sent is still the file
// that was checked, because the upload reads the descriptor that was opened for the check.
func TestAttachSendsWhatWasChecked(t *testing.T) {
	env := newEnv(t)
	secret := filepath.Join(t.TempDir(), "config.json")
	writeFile(t, secret, "SECRET")
	p := filepath.Join(env.Cwd, "report.txt")
	writeFile(t, p, "the report")
	var sent string
	env.Upload = func(ctx context.Context, f chat.File) error {
		if err := os.Remove(p); err != nil {
			return err
		}
		if err := os.Symlink(secret, p); err != nil {
			return err
		}
		b, err := io.ReadAll(io.NewSectionReader(f.Content, 0, f.Size))
		sent = string(b)
		return err
	}
	mustText(t, NewAttach(), env, map[string]any{"path": "report.txt"})
	if sent != "the report" {
		t.Fatalf("sent %q, want the file that was checked", sent)
	}
}

func TestAttachErrors(t *testing.T) {
	env := newEnv(t)
	if got, _ := mustFail(t, NewAttach(), env, map[string]any{"path": "x"}); got != "attaching files is not supported here" {
		t.Errorf("no Upload: %q", got)
	}
	env.Upload = func(ctx context.Context, f chat.File) error { return errors.New("slack said no") }
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
