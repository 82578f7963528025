package web

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// newTestAdapter returns a web chat named "web" over a fresh data directory; it is not
// listening.
func newTestAdapter(t *testing.T) (*Adapter, *store.Store) {
	t.Helper()
	st, err := store.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return New(Options{Name: "web", Store: st}), st
}

// TestMemberChannels: under user isolation a web chat person sees every web channel mom
// knows (the default one, the ones made from the page, any other the page could have made),
// because the token opens them all; never another adapter's channels.
func TestMemberChannels(t *testing.T) {
	a, st := newTestAdapter(t)
	ctx := context.Background()
	if got, err := a.MemberChannels(ctx, "web:Ada"); err != nil || !slices.Equal(got, []string{DefaultChannel}) {
		t.Errorf("before any channel has a directory: %v, %v", got, err)
	}

	// One made from the page, one whose directory mom wrote (a message logged), and
	// directories that are not web channels.
	req := httptest.NewRequest(http.MethodPost, "/api/channels", strings.NewReader(`{"name": "ops"}`))
	rec := httptest.NewRecorder()
	a.createChannel(rec, req)
	if rec.Code != http.StatusCreated {
		t.Fatalf("creating ops: %d %s", rec.Code, rec.Body)
	}
	for _, c := range []struct{ adapter, id string }{{"web", "team-2"}, {"web", "Not A Page Name"}, {"slack-acme", "C123"}} {
		ch, err := st.ChannelDir(c.adapter, c.id)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ch.AppendLog(chat.Message{ID: "1", ChannelID: c.id, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
	}
	for _, user := range []string{"web:Ada", "web:Zoë O'Neil"} {
		got, err := a.MemberChannels(ctx, user)
		if want := []string{"general", "ops", "team-2"}; err != nil || !slices.Equal(got, want) {
			t.Errorf("%s: %v, %v; want %v", user, got, err, want)
		}
	}
}

// TestMemberChannelsRefuses: an id that is not a web chat person's is an error naming it, and
// so is a channel list mom cannot read; neither is taken for "no channels".
func TestMemberChannelsRefuses(t *testing.T) {
	a, st := newTestAdapter(t)
	ctx := context.Background()
	for _, user := range []string{"", "U123", "web:", "web:<b>", "slack:Ada"} {
		if got, err := a.MemberChannels(ctx, user); err == nil || !strings.Contains(err.Error(), `"`+user+`"`) {
			t.Errorf("%q: %v, %v", user, got, err)
		}
	}
	channels := filepath.Join(st.Workspace(), "channels")
	if err := os.RemoveAll(channels); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(channels, []byte("not a directory"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := a.MemberChannels(ctx, "web:Ada"); err == nil || !strings.Contains(err.Error(), channels) {
		t.Errorf("with %s a file: %v, %v", channels, got, err)
	}
}
