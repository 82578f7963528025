package config

import (
	"slices"
	"strings"
)

// AdapterEntry is one entry of config.json's "adapters" object: the settings of one chat
// connection, from which its platform builds the running chat.Adapter.
type AdapterEntry struct {
	// Name is the adapter's key in config.json. It names the adapter's channel directories
	// (channels/<name>/...), so it is limited to letters, digits, "-" and "_".
	Name string
	// Type is the platform, as "type" names it: one of the Platform types given to Parse.
	Type string
	// Admins are platform user ids that may always talk to mom, DMs included.
	Admins []string
	// DM says who else may talk to mom in direct messages, group DMs included.
	DM DMPolicy
	// Groups says where else people may start runs: in which groups and channels.
	Groups GroupPolicy
	// Busy says what happens to a message that addresses mom while it is already working in
	// that channel.
	Busy BusyPolicy
	// Approvals narrow the top level's approval settings for this adapter's channels.
	Approvals Approvals
	// Model names the model entry ("models") the adapter's runs use; "" is the default.
	Model string
	// Limits cap what the adapter's channels spend together (see Limits).
	Limits Limits

	// Options are the platform's own settings, from the entry's other keys. Their type
	// belongs to the platform's package, which reads them back when it builds the adapter.
	Options Options
	// Platform is what config knows of Type. It may be nil for an entry made in code
	// rather than read from config.json (tests), which then has no groups to describe, calls
	// its groups channels, and is no terminal as far as CheckServe is concerned.
	Platform *Platform
}

// GroupWord is what the adapter's platform calls the groups its policy is about ("group",
// "server"), for the notice mom posts where it refuses to work: "channel" unless the platform
// says otherwise.
func (a *AdapterEntry) GroupWord() string {
	if a.Platform != nil && a.Platform.Groups != nil && a.Platform.Groups.Word != "" {
		return a.Platform.Groups.Word
	}
	return "channel"
}

// DMPolicy says who may talk to mom in direct messages, besides the adapter's admins. In
// config.json it is "everyone", "none" or a list of user ids.
type DMPolicy struct {
	// Everyone lets anybody DM mom.
	Everyone bool
	// Users may DM mom when Everyone is false.
	Users []string
}

// Allows reports whether userID may talk to mom in a direct message. Admins always may, so a
// locked-down adapter can still be run by the people who own it.
func (p DMPolicy) Allows(userID string, admins []string) bool {
	if userID != "" && slices.Contains(admins, userID) {
		return true
	}
	if p.Everyone {
		return true
	}
	return userID != "" && slices.Contains(p.Users, userID)
}

// String describes the policy as config.json would spell it.
func (p DMPolicy) String() string {
	switch {
	case p.Everyone:
		return "everyone"
	case len(p.Users) == 0:
		return "none"
	default:
		return strings.Join(p.Users, ", ")
	}
}

// BusyPolicy says what happens to a message that addresses mom while a run is under way in the
// same channel.
type BusyPolicy string

// The busy policies.
const (
	// BusyReject answers that mom is busy and drops the message (the original mom's way).
	BusyReject BusyPolicy = "reject"
	// BusyQueue runs the message after the current run ends.
	BusyQueue BusyPolicy = "queue"
	// BusySteer hands the message to the current run, which reads it at its next turn.
	BusySteer BusyPolicy = "steer"
)

// platformTypes lists the types of platforms, sorted, for messages.
func platformTypes(platforms map[string]*Platform) []string {
	names := make([]string, 0, len(platforms))
	for name := range platforms {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// ValidAdapterName reports whether name can name an adapter in config.json: a directory name
// on every platform mom runs on, usable in a shell command without quoting (at most 64 of
// A-Z, a-z, 0-9, "-" and "_").
func ValidAdapterName(name string) bool {
	if len(name) == 0 || len(name) > 64 {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}
