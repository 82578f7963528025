package fetch

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/store"
)

// fileServer serves /ok as a small file and anything else as 404, like a platform's CDN.
func fileServer(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/ok" {
			http.NotFound(w, r)
			return
		}
		io.WriteString(w, "hello, file")
	}))
	t.Cleanup(srv.Close)
	return srv
}

func newFetcher(t *testing.T, max int64) *Fetcher {
	dir := t.TempDir()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &Fetcher{Platform: "Chat", Adapter: "chat-test", Store: st, Log: slog.New(slog.DiscardHandler), Max: max}
}

// from opens path on srv through f.Get, as an adapter does; srv is the platform's API.
func from(f *Fetcher, srv *httptest.Server, path string) func(context.Context) (io.ReadCloser, error) {
	f.Hosts.API = srv.URL
	return func(ctx context.Context) (io.ReadCloser, error) {
		resp, err := f.Get(ctx, srv.URL+path, nil, "Chat's CDN")
		if err != nil {
			return nil, err
		}
		return resp.Body, nil
	}
}

func TestSaveStoresTheFile(t *testing.T) {
	srv := fileServer(t)
	f := newFetcher(t, 1<<20)
	ts := time.Date(2026, 3, 15, 10, 0, 5, 0, time.UTC)
	att := f.Save(context.Background(), "C1", ts, File{Name: "notes.txt", MimeType: "text/x-notes", Size: 11}, from(f, srv, "/ok"))
	if att.Error != "" || att.Filename != "notes.txt" || att.Size != 11 {
		t.Fatalf("attachment %+v, want notes.txt saved", att)
	}
	ch, err := f.Store.ChannelDir("chat-test", "C1")
	if err != nil {
		t.Fatal(err)
	}
	body, err := os.ReadFile(filepath.Join(ch.Dir(), att.LocalPath))
	if err != nil || string(body) != "hello, file" {
		t.Errorf("saved file holds %q (%v), want the served body", body, err)
	}
}

func TestSaveDescribesFailures(t *testing.T) {
	srv := fileServer(t)
	never := func(context.Context) (io.ReadCloser, error) {
		t.Error("the file was fetched although it could not be kept")
		return nil, errors.New("fetched")
	}
	path := func(p string) func(*Fetcher) func(context.Context) (io.ReadCloser, error) {
		return func(f *Fetcher) func(context.Context) (io.ReadCloser, error) { return from(f, srv, p) }
	}
	nothing := func(*Fetcher) func(context.Context) (io.ReadCloser, error) { return never }
	tests := []struct {
		name string
		max  int64
		pmax bool
		file File
		open func(*Fetcher) func(context.Context) (io.ReadCloser, error)
		want string
	}{
		{"gone", 100, false, File{Name: "a", Gone: errors.New("Chat no longer has it")}, nothing, "Chat no longer has it"},
		{"over mom's limit", 1 << 20, false, File{Name: "a", Size: 3 << 20}, nothing, "the file is 3 MB, over mom's limit of 1 MB"},
		{"over the platform's limit", 1 << 20, true, File{Name: "a", Size: 3 << 20}, nothing, "the file is 3 MB, and Chat lets bots download files only up to 1 MB"},
		{"not found", 100, false, File{Name: "a"}, path("/gone"), "download failed: Chat's CDN answered 404 Not Found"},
		{"larger than it said", 4, false, File{Name: "a", Size: 2}, path("/ok"), "larger than the limit of 4 bytes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFetcher(t, tt.max)
			f.PlatformMax = tt.pmax
			att := f.Save(context.Background(), "C1", time.Now(), tt.file, tt.open(f))
			if !strings.Contains(att.Error, tt.want) || att.LocalPath != "" || att.Filename != "a" {
				t.Errorf("attachment %+v, want the error %q and no file", att, tt.want)
			}
		})
	}
}
