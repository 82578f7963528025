package app

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependenciesPointDown checks the directions of mom's package graph with go list: the
// platforms sit below the hub and the agent, render below the agent and config, config below
// everything. An import that points up fails here, naming the package and what it reached.
func TestDependenciesPointDown(t *testing.T) {
	t.Parallel()
	const mod = "github.com/mom-agent/mom/internal/"
	platforms := []string{"adapter/cli", "adapter/web", "adapter/slack", "adapter/discord", "adapter/telegram", "adapter/whatsapp"}
	rules := map[string][]string{ // package -> what it must not depend on
		"config": {"*"},
		"render": {"agent", "config", "hub"},
		"events": {"hub", "agent"},
		"chat":   {"hub", "agent", "config", "store"},
		"run":    {"hub", "agent", "config"},
	}
	for _, p := range platforms {
		// Nor on each other: what one platform shows through another (WhatsApp's QR code in
		// the web chat) the app passes between them.
		rules[p] = []string{"hub", "agent", "app"}
		for _, q := range platforms {
			if q != p {
				rules[p] = append(rules[p], q)
			}
		}
	}
	// The binary holds no test double or test helper.
	t.Run("cmd/mom", func(t *testing.T) {
		t.Parallel()
		for _, dep := range deps(t, "../../cmd/mom") {
			name, ours := strings.CutPrefix(dep, mod)
			if ours && (strings.HasSuffix(name, "test") || strings.HasPrefix(name, "fake/")) {
				t.Errorf("mom's binary depends on %s, which is for tests only", name)
			}
		}
	})
	for pkg, banned := range rules {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			for _, dep := range deps(t, "../"+pkg) {
				name, ours := strings.CutPrefix(dep, mod)
				if !ours || name == pkg {
					continue
				}
				for _, b := range banned {
					if b == "*" || name == b || strings.HasPrefix(name, b+"/") {
						t.Errorf("%s depends on %s; it must not (see README, Development)", pkg, name)
					}
				}
			}
		})
	}
}

// deps lists the packages dir depends on, itself included, with go list.
func deps(t *testing.T, dir string) []string {
	t.Helper()
	out, err := exec.Command("go", "list", "-deps", dir).Output()
	if err != nil {
		t.Fatalf("go list -deps %s: %v", dir, err)
	}
	return strings.Fields(string(out))
}
