// Package configtest helps the tests of the platforms' packages check how their entries in
// config.json are read: each platform's decoder is declared in its own package, and tested
// there, with config.Parse and only that platform.
package configtest

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/config"
)

// Env returns a lookup over a fixed map, so tests never read the process environment.
func Env(vars map[string]string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		v, ok := vars[name]
		return v, ok
	}
}

// ErrCase is a config.json that must be refused, and the start of the error that says why.
type ErrCase struct{ Name, In, Want string }

// CheckErrors parses each case's config with the given platforms and no environment, and
// checks that the error starts with the case's Want.
func CheckErrors(t *testing.T, platforms []config.Platform, cases []ErrCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			_, err := config.Parse([]byte(tt.In), "config.json", Env(nil), platforms...)
			if err == nil || !strings.HasPrefix(err.Error(), tt.Want) {
				t.Errorf("error:\n%v\nwant it to start with:\n%s", err, tt.Want)
			}
		})
	}
}
