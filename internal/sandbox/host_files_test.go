package sandbox

import (
	"context"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileCreatesParentsAndLeavesNoTempFiles(t *testing.T) {
	h := newTestHost(t)
	path := filepath.Join(h.Workspace(), "a", "b", "c.txt")
	if err := h.WriteFile(context.Background(), path, strings.NewReader("hello")); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "hello" {
		t.Errorf("content %q", got)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("new file mode %v, want 0644", fi.Mode().Perm())
	}
	di, _ := os.Stat(filepath.Dir(path))
	if di.Mode().Perm() != 0o755&^umask(t) {
		t.Errorf("new directory mode %v", di.Mode().Perm())
	}
	if err := h.WriteFile(context.Background(), path, strings.NewReader("replaced")); err != nil {
		t.Fatal(err)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 || entries[0].Name() != "c.txt" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %v, want only c.txt", names)
	}
}

// umask returns the process umask as seen on a freshly made directory, since MkdirAll applies it.
func umask(t *testing.T) fs.FileMode {
	d := filepath.Join(t.TempDir(), "probe")
	os.Mkdir(d, 0o777)
	fi, _ := os.Stat(d)
	return 0o777 &^ fi.Mode().Perm()
}

func TestWriteFileKeepsPermissions(t *testing.T) {
	h := newTestHost(t)
	path := filepath.Join(h.Workspace(), "run.sh")
	os.WriteFile(path, []byte("old"), 0o600)
	os.Chmod(path, 0o750)
	if err := h.WriteFile(context.Background(), path, strings.NewReader("#!/bin/sh\n")); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o750 {
		t.Errorf("mode %v, want 0750 kept", fi.Mode().Perm())
	}
}

func TestWriteFileThroughSymlink(t *testing.T) {
	h := newTestHost(t)
	target := filepath.Join(h.Workspace(), "real.txt")
	link := filepath.Join(h.Workspace(), "link.txt")
	os.WriteFile(target, []byte("old"), 0o644)
	os.Symlink("real.txt", link)
	if err := h.WriteFile(context.Background(), link, strings.NewReader("new")); err != nil {
		t.Fatal(err)
	}
	if li, _ := os.Lstat(link); li.Mode()&fs.ModeSymlink == 0 {
		t.Error("the symlink was replaced by a file")
	}
	if got, _ := os.ReadFile(target); string(got) != "new" {
		t.Errorf("target holds %q", got)
	}
}

func TestWriteFileErrors(t *testing.T) {
	h := newTestHost(t)
	if err := h.WriteFile(context.Background(), h.Workspace(), strings.NewReader("x")); err == nil || !strings.Contains(err.Error(), "is a directory") {
		t.Errorf("directory: %v", err)
	}
	if err := h.WriteFile(context.Background(), "rel.txt", strings.NewReader("x")); err == nil {
		t.Error("relative path accepted")
	}
	// A reader that fails half-way must leave neither the file nor a temporary behind.
	path := filepath.Join(h.Workspace(), "broken.txt")
	err := h.WriteFile(context.Background(), path, io.MultiReader(strings.NewReader("part"), errReader{}))
	if err == nil {
		t.Fatal("failing reader: no error")
	}
	entries, _ := os.ReadDir(h.Workspace())
	if len(entries) != 0 {
		t.Errorf("failed write left %d entries behind (%s)", len(entries), entries[0].Name())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if err := h.WriteFile(ctx, path, strings.NewReader("x")); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

type errReader struct{}

func (errReader) Read([]byte) (int, error) { return 0, errors.New("disk on fire") }

func TestOpenAndStat(t *testing.T) {
	h := newTestHost(t)
	path := filepath.Join(h.Workspace(), "f.txt")
	os.WriteFile(path, []byte("12345"), 0o644)
	fi, err := h.Stat(context.Background(), path)
	if err != nil || fi.Size != 5 || fi.IsDir {
		t.Errorf("Stat: %+v, %v", fi, err)
	}
	if fi, err := h.Stat(context.Background(), h.Workspace()); err != nil || !fi.IsDir {
		t.Errorf("Stat dir: %+v, %v", fi, err)
	}
	r, err := h.Open(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r)
	r.Close()
	if string(b) != "12345" {
		t.Errorf("Open read %q", b)
	}
	if _, err := h.Open(context.Background(), filepath.Join(h.Workspace(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
	if _, err := h.Stat(context.Background(), filepath.Join(h.Workspace(), "missing")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing: %v", err)
	}
}

func TestPaths(t *testing.T) {
	h := newTestHost(t)
	if h.Kind() != "host" {
		t.Errorf("Kind %q", h.Kind())
	}
	if p, err := h.HostPath("/a/b/../c/"); err != nil || p != "/a/c" {
		t.Errorf("HostPath: %q, %v", p, err)
	}
	if _, err := h.HostPath("a/b"); err == nil {
		t.Error("HostPath accepted a relative path")
	}
	if p := h.SandboxPath("/a//b/./c"); p != "/a/b/c" {
		t.Errorf("SandboxPath %q", p)
	}
	if !filepath.IsAbs(h.Workspace()) {
		t.Errorf("Workspace %q is not absolute", h.Workspace())
	}
}

// TestOpenStopsReadingWhenTheRunEnds: reads of a file opened for a run fail once the run is
// aborted, so a tool reading a huge file stops at once.
func TestOpenStopsReadingWhenTheRunEnds(t *testing.T) {
	h := newTestHost(t)
	path := filepath.Join(h.Workspace(), "big.txt")
	os.WriteFile(path, []byte(strings.Repeat("line\n", 1000)), 0o644)
	ctx, cancel := context.WithCancel(context.Background())
	r, err := h.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := r.Read(make([]byte, 10)); err != nil {
		t.Fatalf("read before the abort: %v", err)
	}
	cancel()
	if _, err := io.ReadAll(r); !errors.Is(err, context.Canceled) {
		t.Errorf("read after the abort: err = %v, want context.Canceled", err)
	}
}
