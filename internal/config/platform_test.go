package config

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// TestPlatformUserSpellsAdminsAndDMOneWay: a platform whose user ids can be written several
// ways (a phone number with or without spaces) reads "admins" and "dm" into its one spelling,
// so the access checks compare like with like, and names the entry that is no id at all.
func TestPlatformUserSpellsAdminsAndDMOneWay(t *testing.T) {
	phone := Platform{Type: "phone", UserID: "+431234567", User: func(id string) (string, error) {
		id = strings.ReplaceAll(id, " ", "")
		if !strings.HasPrefix(id, "+") {
			return "", errors.New("write the number with its country code, like +431234567")
		}
		return id, nil
	}}
	c, err := Parse([]byte(`{"adapters": {"p": {"type": "phone", "admins": ["+43 123 4567"], "dm": ["+49 30 1234"]}}}`), "config.json", noEnv, phone)
	if err != nil {
		t.Fatal(err)
	}
	if a := c.Adapters[0]; !slices.Equal(a.Admins, []string{"+431234567"}) || !slices.Equal(a.DM.Users, []string{"+49301234"}) {
		t.Errorf("admins %q, dm %q; want the numbers without spaces", a.Admins, a.DM.Users)
	}
	_, err = Parse([]byte(`{"adapters": {"p": {"type": "phone", "admins": ["+431", "0664 1234"]}}}`), "config.json", noEnv, phone)
	want := "config.json: adapters.p.admins[1]: write the number with its country code, like +431234567"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v; want %q", err, want)
	}
}
