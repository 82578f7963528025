package config

import (
	"slices"
	"strings"
)

// Adapter is one chat connection from config.json's "adapters" object.
type Adapter struct {
	// Name is the adapter's key in config.json. It names the adapter's channel directories
	// (channels/<name>/...), so it is limited to letters, digits, "-" and "_".
	Name string
	// Type is the platform: "cli" or "slack"; later discord, telegram, whatsapp and web.
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

	// Exactly one of the options below is set, matching Type.

	// CLI holds the terminal adapter's options.
	CLI *CLIOptions
	// Slack holds the Slack adapter's options.
	Slack *SlackOptions
	// Discord holds the Discord adapter's options.
	Discord *DiscordOptions
	// Web holds the web chat's options.
	Web *WebOptions
	// Telegram holds the Telegram adapter's options.
	Telegram *TelegramOptions
}

// CLIOptions are the terminal adapter's own options. It has none beyond the common ones yet;
// the struct exists so every type is handled the same way.
type CLIOptions struct{}

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

// adapterKind is what config needs to know about one adapter type. Adding a platform means
// adding its options struct, a field on Adapter, and one entry in adapterKinds.
type adapterKind struct {
	// keys are the type's own keys, in the order error messages list them.
	keys []string
	// dm is the default DM policy: open for the local terminal, closed for networks where
	// strangers can reach the bot.
	dm DMPolicy
	// userID is an example of the platform's user ids, for messages about admins and dm.
	userID string
	// groups is set for platforms with groups or channels besides DMs; they accept "groups".
	groups *groupKind
	// decode reads the type's own keys from o and sets the type's options pointer on a.
	decode func(o *object, a *Adapter)
	// describe adds type-specific detail to Summary. It must never print a secret. May be nil.
	describe func(a *Adapter) string
}

// adapterKinds is the table of adapter types. It is never modified.
var adapterKinds = map[string]adapterKind{
	"cli": {
		dm:     DMPolicy{Everyone: true},
		userID: "local",
		decode: func(o *object, a *Adapter) {
			a.CLI = &CLIOptions{}
		},
	},
	"slack":    slackKind,
	"discord":  discordKind,
	"web":      webKind,
	"telegram": telegramKind,
}

// commonAdapterKeys are accepted by every adapter type.
var commonAdapterKeys = []string{"type", "busy", "admins", "dm"}

// adapterTypeNames lists the known adapter types, sorted, for messages.
func adapterTypeNames() []string {
	names := make([]string, 0, len(adapterKinds))
	for name := range adapterKinds {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// validAdapterName reports whether name can be a directory name on every platform mom runs on
// and in a shell command without quoting.
func validAdapterName(name string) bool {
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
