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
	platforms := []string{"adapter/cli", "adapter/web", "adapter/slack", "adapter/discord", "adapter/telegram"}
	rules := map[string][]string{ // package -> what it must not depend on
		"config": {"*"},
		"render": {"agent", "config", "hub"},
		"events": {"hub", "agent"},
		"chat":   {"hub", "agent", "config", "store"},
		"run":    {"hub", "agent", "config"},
	}
	for _, p := range platforms {
		rules[p] = []string{"hub", "agent", "app"}
	}
	for pkg, banned := range rules {
		t.Run(pkg, func(t *testing.T) {
			t.Parallel()
			out, err := exec.Command("go", "list", "-deps", "../"+pkg).Output()
			if err != nil {
				t.Fatalf("go list -deps %s: %v", pkg, err)
			}
			for _, dep := range strings.Fields(string(out)) {
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
