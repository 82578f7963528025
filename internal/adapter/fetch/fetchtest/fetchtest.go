// Package fetchtest checks, in a platform's tests, which addresses its attachment downloads
// may reach (fetch.Hosts).
package fetchtest

import (
	"net/url"
	"testing"

	"github.com/mom-agent/mom/internal/adapter/fetch"
)

// CheckHosts fails t for every address of want that h allows when want says it must not, or
// refuses when want says it must allow.
func CheckHosts(t testing.TB, h fetch.Hosts, want map[string]bool) {
	t.Helper()
	for address, allowed := range want {
		u, err := url.Parse(address)
		if err != nil {
			t.Fatal(err)
		}
		if h.Allows(u) != allowed {
			t.Errorf("%s: allowed = %v, want %v", address, !allowed, allowed)
		}
	}
}
