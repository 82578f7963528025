//go:build !nowhatsapp

package whatsapp

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.mau.fi/whatsmeow/proto/waAdv"
	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/store"
)

// These tests run whatsmeow's real SQLite device store (modernc.org/sqlite) in a temporary data
// directory: what a linked device keeps must survive a restart, and a device the phone logged
// out must make way for a fresh one without its old store being lost.

// openStore opens a data directory at dir for the adapters' Env.
func openStore(t *testing.T, dir string) *store.Store {
	t.Helper()
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return st
}

// connect opens the device of the adapter called name, as the adapter does when it starts.
func connect(t *testing.T, st *store.Store, name string) *device {
	t.Helper()
	c, err := Connect(context.Background(), name, platform.Env{Store: st})
	if err != nil {
		t.Fatal(err)
	}
	d := c.(*device)
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// linkFake stores d as linked to number, as whatsmeow's pairing does when the phone accepts,
// with a contact the phone shared.
func linkFake(t *testing.T, d *device, number string) {
	t.Helper()
	ctx := context.Background()
	d.Store.ID = &types.JID{User: number, Device: 7, Server: types.DefaultUserServer}
	d.Store.PushName = "mom"
	// What the phone signs; the store checks only the sizes.
	d.Store.Account = &waAdv.ADVSignedDeviceIdentity{Details: []byte{1},
		AccountSignature: make([]byte, 64), AccountSignatureKey: make([]byte, 32), DeviceSignature: make([]byte, 64)}
	if err := d.Store.Save(ctx); err != nil {
		t.Fatal(err)
	}
	ada := types.NewJID("4369912345678", types.DefaultUserServer)
	if err := d.Store.Contacts.PutContactName(ctx, ada, "Ada", "Ada Lovelace"); err != nil {
		t.Fatal(err)
	}
}

func mode(t *testing.T, path string) os.FileMode {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Mode().Perm()
}

// TestDeviceSurvivesRestart: a new store is made private and holds an unlinked device; once
// linked, the same keys, number, push name and contacts are there after mom restarts.
func TestDeviceSurvivesRestart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	st := openStore(t, dir)
	d := connect(t, st, "wa")
	path := DevicePath(st.DataDir(), "wa")
	if got := mode(t, path); got != 0o600 {
		t.Errorf("%s has mode %v, want 0600", path, got)
	}
	if got := mode(t, filepath.Dir(path)); got != 0o700 {
		t.Errorf("%s has mode %v, want 0700", filepath.Dir(path), got)
	}
	if !strings.HasPrefix(path, dir) || strings.HasPrefix(path, st.Workspace()) {
		t.Errorf("the store %s is not beside the workspace %s", path, st.Workspace())
	}
	if jid, _, ok := d.Self(); ok {
		t.Errorf("a new device is linked to %s", jid)
	}
	if !d.SynchronousAck || !d.EnableDecryptedEventBuffer || !d.EnableAutoReconnect {
		t.Errorf("client: SynchronousAck %v, EnableDecryptedEventBuffer %v, EnableAutoReconnect %v; want all on",
			d.SynchronousAck, d.EnableDecryptedEventBuffer, d.EnableAutoReconnect)
	}
	linkFake(t, d, "431234567")
	noise := *d.Store.NoiseKey.Pub
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	d = connect(t, st, "wa")
	jid, push, ok := d.Self()
	if !ok || jid.String() != "431234567@s.whatsapp.net" || push != "mom" {
		t.Errorf("after a restart Self = %s, %q, %v; want the number without its device, and the push name", jid, push, ok)
	}
	if *d.Store.NoiseKey.Pub != noise {
		t.Error("after a restart the device has other keys")
	}
	c, err := d.Contact(context.Background(), types.NewJID("4369912345678", types.DefaultUserServer))
	if err != nil || c.FullName != "Ada Lovelace" || c.FirstName != "Ada" {
		t.Errorf("Contact = %+v, %v", c, err)
	}
	// Another adapter has a store of its own.
	if _, _, ok := connect(t, st, "wa2").Self(); ok {
		t.Error("a second adapter shares the first one's device")
	}
}

// TestLoggedOutIsSetAside: after the phone logs the device out, its store is moved aside,
// not deleted, and the next start gets a fresh device to link.
func TestLoggedOutIsSetAside(t *testing.T) {
	t.Parallel()
	st := openStore(t, t.TempDir())
	d := connect(t, st, "wa")
	linkFake(t, d, "431234567")
	noise := *d.Store.NoiseKey.Pub
	// whatsmeow deletes the device from the store when the phone logs it out.
	if err := d.Store.Delete(context.Background()); err != nil {
		t.Fatal(err)
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	at := time.Date(2026, 3, 15, 11, 0, 5, 0, time.FixedZone("CET", 3600))
	path := DevicePath(st.DataDir(), "wa")
	aside, err := SetAsideLoggedOut(st.DataDir(), "wa", at)
	if err != nil {
		t.Fatal(err)
	}
	if want := path + ".logged-out-20260315T100005.000Z"; aside != want {
		t.Errorf("set aside as %s, want %s", aside, want)
	}
	if got := mode(t, aside); got != 0o600 {
		t.Errorf("the store set aside has mode %v, want 0600", got)
	}
	if _, err := os.Lstat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s is still there: %v", path, err)
	}

	d = connect(t, st, "wa")
	if jid, _, ok := d.Self(); ok {
		t.Errorf("after the log-out the device is linked to %s", jid)
	}
	if *d.Store.NoiseKey.Pub == noise {
		t.Error("the fresh device has the old one's keys")
	}
	if err := d.Close(); err != nil {
		t.Fatal(err)
	}

	// A second log-out at the same instant keeps the first store set aside.
	again, err := SetAsideLoggedOut(st.DataDir(), "wa", at)
	if err != nil || again == aside || !strings.HasPrefix(again, aside) {
		t.Errorf("the second set-aside = %s, %v; want a name beside %s", again, err, aside)
	}
	if _, err := os.Stat(aside); err != nil {
		t.Errorf("the first store set aside is gone: %v", err)
	}
	// With no store there is nothing to set aside.
	if got, err := SetAsideLoggedOut(st.DataDir(), "wa", at); got != "" || err != nil {
		t.Errorf("without a store: %q, %v", got, err)
	}
}

// TestDevicePathIsLiteral: no character of the data directory's path is read as part of the
// SQLite URI the store is opened with.
func TestDevicePathIsLiteral(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "a b?mode=ro#x%41")
	d := connect(t, openStore(t, dir), "wa")
	linkFake(t, d, "431234567")
	if _, err := os.Stat(filepath.Join(dir, "whatsapp", "wa.db")); err != nil {
		t.Errorf("the store is not where it belongs: %v", err)
	}
}

// TestConnectRefuses: without a data directory, or with a name that is no file name, there is
// no store to open.
func TestConnectRefuses(t *testing.T) {
	t.Parallel()
	if _, err := Connect(context.Background(), "wa", platform.Env{}); err == nil || !strings.Contains(err.Error(), "no data directory") {
		t.Errorf("without a store: %v", err)
	}
	st := openStore(t, t.TempDir())
	for _, name := range []string{"", "../wa", "a/b", ".."} {
		if _, err := Connect(context.Background(), name, platform.Env{Store: st}); err == nil {
			t.Errorf("Connect(%q) opened a store", name)
		}
	}
}

// stringer counts how often it is formatted.
type stringer struct{ n *int }

func (s stringer) String() string { *s.n++; return "node" }

// TestLogger: whatsmeow's warnings and errors reach mom's log as such and the rest at debug
// level, with the part of whatsmeow that logged; lines below the log's level are not even
// formatted.
func TestLogger(t *testing.T) {
	t.Parallel()
	var buf bytes.Buffer
	l := newLogger(slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug})))
	l.Sub("Client").Sub("Recv").Warnf("odd %s", "frame")
	l.Errorf("failed: %v", errors.New("boom"))
	l.Infof("connected")
	out := buf.String()
	for _, want := range []string{`level=WARN msg="odd frame" whatsmeow=Client/Recv`, `level=ERROR msg="failed: boom"`, `level=DEBUG msg=connected`} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %s:\n%s", want, out)
		}
	}

	n := 0
	buf.Reset()
	quiet := newLogger(slog.New(slog.NewTextHandler(&buf, nil))) // info and above
	quiet.Debugf("%s", stringer{&n})
	quiet.Infof("%s", stringer{&n})
	if n != 0 || buf.Len() != 0 {
		t.Errorf("debug lines were formatted %d times and wrote %q", n, buf.String())
	}
	newLogger(nil).Errorf("%s", stringer{&n}) // discards
}
