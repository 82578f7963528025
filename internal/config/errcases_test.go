package config

import (
	"strings"
	"testing"
)

// errCase is a config.json that must be refused, and the start of the error that says why.
type errCase struct{ name, in, want string }

// checkErrors parses each case's config and checks that the error starts with want.
func checkErrors(t *testing.T, cases []errCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in), "config.json", noEnv)
			if err == nil || !strings.HasPrefix(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to start with:\n%s", err, tt.want)
			}
		})
	}
}
