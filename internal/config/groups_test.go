package config

import (
	"testing"
)

func TestGroupPolicyAdmits(t *testing.T) {
	admins := []string{"boss"}
	tests := []struct {
		name          string
		p             GroupPolicy
		user, ch, grp string
		yes, ask      bool
	}{
		{"admin under none", GroupPolicy{}, "boss", "C1", "G1", true, false},
		{"stranger under none", GroupPolicy{}, "eve", "C1", "G1", false, false},
		{"anyone under everyone", GroupPolicy{Everyone: true}, "eve", "C1", "G1", true, false},
		{"admin under admins", GroupPolicy{WhereAdmins: true}, "boss", "C1", "G1", true, false},
		{"others under admins: ask", GroupPolicy{WhereAdmins: true}, "eve", "C1", "G1", false, true},
		{"listed group", GroupPolicy{IDs: []string{"G1"}}, "eve", "C1", "G1", true, false},
		{"listed channel", GroupPolicy{IDs: []string{"C1"}}, "eve", "C1", "G1", true, false},
		{"not listed", GroupPolicy{IDs: []string{"G2"}}, "eve", "C1", "G1", false, false},
		{"no group known", GroupPolicy{IDs: []string{""}}, "eve", "C1", "", false, false},
		{"nobody", GroupPolicy{IDs: []string{"G1"}}, "", "C9", "G9", false, false},
	}
	for _, tt := range tests {
		yes, ask := tt.p.Admits(tt.user, tt.ch, tt.grp, admins)
		if yes != tt.yes || ask != tt.ask {
			t.Errorf("%s: Admits = %v, %v; want %v, %v", tt.name, yes, ask, tt.yes, tt.ask)
		}
	}
}
