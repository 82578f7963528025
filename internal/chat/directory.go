package chat

import (
	"cmp"
	"slices"
	"strings"
)

// SortedUsers returns the users of a directory ordered by username, so the system prompt
// lists people the same way every run (and the prompt cache keeps working).
func SortedUsers(users map[string]User) []User {
	return sortedValues(users, func(u User) string { return u.Username })
}

// SortedChannels returns the channels of a directory ordered by name, for the same reason.
func SortedChannels(chans map[string]Channel) []Channel {
	return sortedValues(chans, func(c Channel) string { return c.Name })
}

// ChannelsByID returns the channels of a directory ordered by id: for platforms that only
// know the chats they have heard from, whose names may be missing or repeat.
func ChannelsByID(chans map[string]Channel) []Channel {
	return sortedValues(chans, func(c Channel) string { return c.ID })
}

// sortedValues returns m's values ordered by key, and by map key where keys tie, so the
// order never depends on map iteration.
func sortedValues[T any](m map[string]T, key func(T) string) []T {
	ids := make([]string, 0, len(m))
	for id := range m {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, func(a, b string) int {
		return cmp.Or(strings.Compare(key(m[a]), key(m[b])), strings.Compare(a, b))
	})
	out := make([]T, len(ids))
	for i, id := range ids {
		out[i] = m[id]
	}
	return out
}

// UserNamed finds a user by handle, ignoring case, for turning the model's @username into a
// mention.
func UserNamed(users map[string]User, username string) (User, bool) {
	for _, u := range users {
		if strings.EqualFold(u.Username, username) {
			return u, true
		}
	}
	return User{}, false
}
