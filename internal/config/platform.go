package config

// Platform is what config needs to know about one adapter type to read its entries in
// "adapters": the defaults of the keys every adapter has, and how to read the type's own keys.
// config names no platform itself: each platform's package declares its Platform, and the
// registry of platforms (package adapter) hands them all to Parse.
type Platform struct {
	// Type is the value of "type" that selects the platform.
	Type string
	// Keys are the type's own keys, in the order error messages list them. They may not be
	// one of CommonAdapterKeys.
	Keys []string
	// DM is the default DM policy: open for the local terminal, closed for networks where
	// strangers can reach the bot.
	DM DMPolicy
	// Busy is the default busy policy, when not BusyReject: the web chat queues, since its
	// page shows what waits and has a Stop button.
	Busy BusyPolicy
	// UserID is an example of the platform's user ids, for messages about admins and dm.
	UserID string
	// User, when set, reads one user id of "admins" and "dm" the one way the platform's
	// messages name their senders (a phone number can be written several ways), or says why
	// it is no user id of the platform. Without it ids are taken as they are written.
	User func(id string) (string, error)
	// Groups is set for platforms with groups or channels besides DMs; they accept "groups".
	Groups *Groups
	// Terminal says the adapter is the chat at this process's keyboard: a config may have
	// one at most (CheckServe), and Config.Terminal finds it.
	Terminal bool
	// Decode reads the type's own keys from o and returns the adapter's options, reporting
	// problems on o. It is called once per entry, after the common keys were read.
	Decode func(o *Object) Options
}

// Groups is what config knows about an adapter type's groups.
type Groups struct {
	// Default is the policy when "groups" is not set: closed to strangers where anyone can
	// add the bot to a group, open where the platform itself admits only trusted people.
	Default GroupPolicy
	// Example is one of the platform's group or channel ids, for messages.
	Example string
	// NoLookup, when set, says why the platform cannot tell mom who is in a group, so
	// "admins" cannot work there.
	NoLookup string
	// Word is what the platform calls the groups the policy is about ("group", "server"),
	// for the notice mom posts where it refuses to work; "" means "channel".
	Word string
}

// Options are an adapter's own settings, read from its entry's own keys by its platform's
// Decode. Their type belongs to the platform's package, whose constructor takes them back.
type Options interface {
	// Describe adds the settings to the adapter's line in `mom check`'s summary ("" adds
	// nothing). It must never print a secret.
	Describe() string
}

// HealthServer is implemented by the options of an adapter that answers the health checks on
// an address of its own, as the web chat does beside its pages, so that the "health" section
// is not given the same address: only one of the two servers could start there.
type HealthServer interface {
	// HealthClash says why the health checks cannot listen on addr beside the adapter
	// called name, or "" when they can.
	HealthClash(addr, name string) string
}

// commonAdapterKeys are accepted by every adapter type.
var commonAdapterKeys = []string{"type", "busy", "admins", "dm", "approvals", "model", "limits"}

// CommonAdapterKeys returns the keys every adapter entry accepts, whatever its type ("groups"
// joins them for types with Groups), in the order error messages list them.
func CommonAdapterKeys() []string {
	return append([]string(nil), commonAdapterKeys...)
}
