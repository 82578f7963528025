//go:build !nowhatsapp

package whatsapp_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"go.mau.fi/whatsmeow/types"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/adapter/platform"
	"github.com/mom-agent/mom/internal/adapter/whatsapp"
	"github.com/mom-agent/mom/internal/apptest"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
	"github.com/mom-agent/mom/internal/store"
)

// The WhatsApp adapter's behaviour tests run a whole mom in-process (package apptest) with
// its WhatsApp connection opened on the in-process fake (internal/fake/whatsapp), since there
// is no WhatsApp server to fake on the network, and assert what people would see in the fake's
// chats. With no loopback server the conformance suite of cmd/mom cannot run the real binary
// against WhatsApp, so its rows (mention, DM policy, stop, busy, long answer, files both ways,
// [SILENT], a dropped connection) are here too, besides what only WhatsApp has: quotes,
// prefixes, groups that hide numbers, the edit window, read receipts, linking.

// The fake's cast, by the short names the tests use: ada is mom's admin, bea is not.
var (
	mom, ada, bea = fakewa.CastMom.JID, fakewa.CastAda.JID, fakewa.CastBea.JID
	family, club  = fakewa.CastFamily.JID, fakewa.CastClub.JID
)

// asAdmin makes ada mom's admin, in the adapter's settings.
const asAdmin = `"admins": ["+431111111"]`

// waWorld is a data directory whose config has one WhatsApp adapter, "wa", on a fake
// WhatsApp with the cast's people and groups.
type waWorld struct {
	*apptest.World
	t  *testing.T
	wa *fakewa.Server
}

// newWorld makes the world; settings are the adapter's settings besides its type (asAdmin,
// "busy", ...). At the test's end it fails the test if mom broke WhatsApp's rules, and should
// the test fail, it shows what mom sent.
func newWorld(t *testing.T, settings string, opts ...fakewa.Option) *waWorld {
	t.Helper()
	wa := fakewa.NewCast(opts...)
	w := &waWorld{World: apptest.New(t), t: t, wa: wa}
	w.Platforms = registryOn(map[string]*fakewa.Server{"wa": wa}, wa.Now)
	t.Cleanup(func() { w.lookBack(wa) })
	entry := `"type": "whatsapp"`
	if settings != "" {
		entry += ", " + settings
	}
	w.Configure("wa", entry)
	return w
}

// lookBack stops mom, then fails the test if mom broke WhatsApp's rules, and shows what mom
// sent should the test have failed.
func (w *waWorld) lookBack(wa *fakewa.Server) {
	w.Stop() // before the fake looks back on what mom did
	if v := wa.Violations(); len(v) > 0 {
		w.t.Errorf("mom broke WhatsApp's rules:\n%s", strings.Join(v, "\n"))
	}
	if w.t.Failed() {
		for _, s := range wa.Sends() {
			w.t.Logf("sent to %s at %s: %v %s", s.To, s.At.Format("15:04:05.000"), s.Msg, s.Err)
		}
	}
}

// registryOn is mom's registry of platforms with WhatsApp's adapters opened on fakes, each on
// the world of its name, and reading the time from now.
func registryOn(worlds map[string]*fakewa.Server, now func() time.Time) *adapter.Registry {
	connect := func(_ context.Context, name string, _ platform.Env) (whatsapp.Client, error) {
		s := worlds[name]
		if s == nil {
			return nil, fmt.Errorf("no fake WhatsApp for adapter %s", name)
		}
		return s.Device(), nil
	}
	var specs []platform.Spec
	for _, s := range adapter.Builtin().Specs() {
		if s.Kind() != whatsapp.Kind {
			specs = append(specs, s)
		}
	}
	return adapter.NewRegistry(append(specs, whatsapp.PlatformOn(connect, whatsapp.WithClock(now)))...)
}

// The fake fits the adapter's Client.
var _ whatsapp.Client = (*fakewa.Client)(nil)

// run starts mom and waits until its device is connected.
func (w *waWorld) run() {
	w.t.Helper()
	w.Start()
	w.wa.WaitFor(w.t, "mom's device to connect", w.wa.Connected)
}

// momSays waits for a message of mom in chat whose text holds want, and returns it.
func (w *waWorld) momSays(chat types.JID, want string) fakewa.Message {
	w.t.Helper()
	return apptest.AwaitMessage(w.t, w.wa.WaitFor, fmt.Sprintf("mom to say %q in %s", want, chat),
		func() []fakewa.Message { return w.wa.MomSaid(chat) },
		func(m fakewa.Message) bool { return strings.Contains(m.Text, want) })
}

// mention has a person address mom in a group, the way the apps write a mention.
func (w *waWorld) mention(group, from types.JID, text string) types.MessageID {
	return w.wa.Say(group, from, w.wa.Tag(mom, group)+" "+text, fakewa.Mentioning(mom))
}

// chatDir is the directory of a chat's channel.
func (w *waWorld) chatDir(chat types.JID) string {
	w.t.Helper()
	dir, err := store.PathComponent(chat.String())
	if err != nil {
		w.t.Fatal(err)
	}
	return w.ChannelDir("wa", dir)
}

// logged returns the texts of a chat's log.jsonl, oldest first.
func (w *waWorld) logged(chat types.JID) []string {
	w.t.Helper()
	var out []string
	for _, l := range apptest.JSONLines(w.t, w.chatDir(chat)+"/log.jsonl") {
		out = append(out, fmt.Sprint(l["text"]))
	}
	return out
}

// healthAt matches the address the health checks listen on, in mom's log.
var healthAt = regexp.MustCompile(`msg="health checks listening" addr=(\S+)`)

// readyz asks mom's health checks (`"health": {"listen": "127.0.0.1:0"}`) whether it is ready.
func (w *waWorld) readyz() (int, string) {
	w.t.Helper()
	w.WaitLog("health checks listening")
	m := healthAt.FindAllStringSubmatch(w.Log(), -1)
	resp, err := http.Get("http://" + m[len(m)-1][1] + "/readyz")
	if err != nil {
		w.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, strings.TrimSpace(string(body))
}
