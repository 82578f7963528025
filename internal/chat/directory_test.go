package chat

import (
	"slices"
	"testing"
)

func TestSortedUsersAndChannels(t *testing.T) {
	users := map[string]User{"U3": {ID: "U3", Username: "cy"}, "U1": {ID: "U1", Username: "ada"},
		"U2": {ID: "U2", Username: "bo"}, "U0": {ID: "U0", Username: "bo"}}
	var got []string
	for _, u := range SortedUsers(users) {
		got = append(got, u.ID)
	}
	// Equal usernames fall back to the id, so the order never depends on the map.
	if want := []string{"U1", "U0", "U2", "U3"}; !slices.Equal(got, want) {
		t.Errorf("users in order %v, want %v", got, want)
	}
	chans := map[string]Channel{"C2": {ID: "C2", Name: "random"}, "C1": {ID: "C1", Name: "general"}}
	if cs := SortedChannels(chans); len(cs) != 2 || cs[0].ID != "C1" || cs[1].ID != "C2" {
		t.Errorf("channels in order %+v, want general then random", cs)
	}
}

func TestUserNamed(t *testing.T) {
	users := map[string]User{"U1": {ID: "U1", Username: "Ada"}}
	if u, ok := UserNamed(users, "ada"); !ok || u.ID != "U1" {
		t.Errorf("UserNamed(ada) = %+v, %v; want U1, ignoring case", u, ok)
	}
	if _, ok := UserNamed(users, "bob"); ok {
		t.Error("UserNamed found bob, who is not there")
	}
}
