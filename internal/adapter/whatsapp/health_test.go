//go:build !nowhatsapp

package whatsapp_test

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakewa "github.com/mom-agent/mom/internal/fake/whatsapp"
)

// withHealth rewrites the config with the health checks on a port of their own, and one
// WhatsApp adapter for each world, named as in worlds, with ada as admin; the adapters open
// their devices on those worlds.
func (w *waWorld) withHealth(worlds map[string]*fakewa.Server) {
	w.t.Helper()
	var names, entries []string
	for name := range worlds {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		entries = append(entries, fmt.Sprintf(`%q: {"type": "whatsapp", %s}`, name, asAdmin))
		if worlds[name] != w.wa {
			spare := worlds[name]
			w.t.Cleanup(func() { w.lookBack(spare) })
		}
	}
	w.Platforms = registryOn(worlds, w.wa.Now)
	w.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": %q, "baseUrl": %q},
  "health": {"listen": "127.0.0.1:0"},
  "adapters": {%s},
}`, apptest.APIKey, w.LLM.URL(), strings.Join(entries, ", ")))
}

// TestWhatsAppUnlinkedDeviceDoesNotStopTheOthers: an adapter whose device is not linked yet
// says how to link it and stays not connected in /readyz, while the other adapter works.
func TestWhatsAppUnlinkedDeviceDoesNotStopTheOthers(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	spare := fakewa.NewCast(fakewa.Unlinked())
	w.withHealth(map[string]*fakewa.Server{"wa": w.wa, "spare": spare})
	w.LLM.Enqueue(fakellm.Text("Still here."))
	w.run()
	w.WaitLog("Link it with: mom whatsapp-link " + w.Dir + " spare")
	if status, body := w.readyz(); status != http.StatusServiceUnavailable || body != "not connected: spare" {
		t.Errorf("/readyz = %d %q; want 503 naming the unlinked adapter", status, body)
	}
	w.wa.Say(ada, ada, "hi")
	w.momSays(ada, "Still here.")
	w.Stop()
	if spare.Connections() != 0 {
		t.Error("mom connected the unlinked device, which starts pairing in the background")
	}
}

// TestWhatsAppLoggedOutFromThePhone: when the phone removes the device, mom says so with the
// command that links it again, and /readyz reports the adapter; the next mom starts all the
// same and says the device is not linked.
func TestWhatsAppLoggedOutFromThePhone(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	w.withHealth(map[string]*fakewa.Server{"wa": w.wa})
	w.run()
	if status, body := w.readyz(); status != http.StatusOK {
		t.Fatalf("/readyz = %d %q while connected", status, body)
	}
	w.wa.RemoveDevice()
	w.WaitLog("WhatsApp logged this device out")
	w.WaitLog("Link it again with: mom whatsapp-link " + w.Dir + " wa")
	if status, body := w.readyz(); status != http.StatusServiceUnavailable || body != "not connected: wa" {
		t.Errorf("/readyz = %d %q after the logout; want wa reported", status, body)
	}
	w.Stop()
	w.Start()
	w.WaitLog("not linked to a phone yet")
	if status, body := w.readyz(); status != http.StatusServiceUnavailable || body != "not connected: wa" {
		t.Errorf("/readyz = %d %q after a restart; want wa still reported", status, body)
	}
}

// TestWhatsAppRemovedWhileAway: a device the phone removed while mom was stopped is logged
// out as it connects; mom starts all the same and says how to link it again.
func TestWhatsAppRemovedWhileAway(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	w.withHealth(map[string]*fakewa.Server{"wa": w.wa})
	w.run()
	w.Stop()
	w.wa.RemoveDevice()
	w.Start()
	w.WaitLog("Link it again with: mom whatsapp-link " + w.Dir + " wa")
	if status, body := w.readyz(); status != http.StatusServiceUnavailable || body != "not connected: wa" {
		t.Errorf("/readyz = %d %q; want wa reported", status, body)
	}
	if w.wa.Linked() {
		t.Error("the device is still linked after the logout")
	}
}

// TestWhatsAppSilentConnectionShowsInHealth: a connection that is open but stops answering
// keep-alive pings counts as down in /readyz until it answers again.
func TestWhatsAppSilentConnectionShowsInHealth(t *testing.T) {
	t.Parallel()
	w := newWorld(t, "")
	w.withHealth(map[string]*fakewa.Server{"wa": w.wa})
	w.run()
	w.wa.KeepAliveTimeout(2)
	w.WaitLog("stopped answering keep-alive pings")
	if status, body := w.readyz(); status != http.StatusServiceUnavailable || body != "not connected: wa" {
		t.Errorf("/readyz = %d %q while silent; want wa reported", status, body)
	}
	w.wa.KeepAliveRestored()
	w.WaitLog("answers keep-alive pings again")
	if status, body := w.readyz(); status != http.StatusOK {
		t.Errorf("/readyz = %d %q once answering again; want ready", status, body)
	}
}
