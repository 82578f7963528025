//go:build !nowhatsapp

package whatsapp

import (
	"fmt"
	"strings"

	"github.com/mom-agent/mom/internal/config"
)

// Config are the WhatsApp adapter's own settings, from its entry in config.json. The linked
// device itself is not configured here: `mom whatsapp-link` links it and keeps its keys in
// <data-dir>/whatsapp/<adapter>.db.
type Config struct {
	// Prefix, when set, makes a group message that starts with it start a run, besides a
	// mention of mom's number and a reply to one of its messages ("mom," or "!mom"). It is
	// taken off the text the model reads.
	Prefix string
	// Verbosity says how much of a run people see; quiet (answers and errors only) unless
	// set, since WhatsApp has no threads to put details in.
	Verbosity config.Verbosity
	// HistoryDays is how many days of the phone's history to import into the logs as context
	// when the device is first linked; 0 imports nothing.
	HistoryDays int
}

// Describe is what `mom check` says of the settings.
func (c *Config) Describe() string {
	out := "verbosity " + string(c.Verbosity)
	if c.Prefix != "" {
		out += fmt.Sprintf("; prefix %q starts runs in groups", c.Prefix)
	}
	if c.HistoryDays > 0 {
		out += fmt.Sprintf("; %d days of history imported on linking", c.HistoryDays)
	}
	return out
}

// configPlatform says how config.json's WhatsApp entries are read.
func configPlatform() config.Platform {
	return config.Platform{
		Type:   string(Kind),
		Keys:   []string{"prefix", "verbosity", "historyDays"},
		DM:     config.DMPolicy{},
		UserID: "+431234567",
		User:   canonicalUser,
		// Anyone who has mom's number can add it to a group, so groups are closed to strangers
		// by default.
		Groups: &config.Groups{Default: config.GroupPolicy{WhereAdmins: true}, Example: "120363012345678901@g.us", Word: "group"},
		Decode: decodeConfig,
	}
}

// decodeConfig reads a WhatsApp entry's own keys.
func decodeConfig(o *config.Object) config.Options {
	c := &Config{Verbosity: o.VerbosityOr(config.Quiet)}
	if p, ok := o.Str("prefix"); ok {
		c.Prefix = strings.TrimSpace(p)
		if c.Prefix == "" {
			o.Fail("prefix", "is empty; leave it out, or give the word that starts a run in groups, like \"mom,\"")
		}
	}
	if n, ok := o.Int("historyDays", 0); ok {
		c.HistoryDays = n
	}
	return c
}
