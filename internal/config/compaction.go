package config

import "github.com/tailscale/hujson"

// Compaction says when a channel's context is summarized to keep it inside the model's
// context window (the "compaction" section; the README's "Compaction").
type Compaction struct {
	// Enabled turns automatic compaction on: after a turn that leaves the context fuller than
	// the window minus ReserveTokens, and when the model refuses a request as too long.
	Enabled bool
	// ReserveTokens is the room kept free for the next answer and the system prompt.
	ReserveTokens int
	// KeepRecentTokens is about how much of the newest conversation survives word for word.
	KeepRecentTokens int
}

var compactionKeys = []string{"enabled", "reserveTokens", "keepRecentTokens"}

// defaultCompaction is what config.json means without a "compaction" section: pi's settings,
// on, reserve 16,384 tokens, keep the newest 20,000. Package compact, which applies them, has
// the same defaults of its own (compact.Defaults); config spells them out so that it imports
// nothing of mom's, and TestSettingsMatchWhoAppliesThem keeps the two in step.
func defaultCompaction() Compaction {
	return Compaction{Enabled: true, ReserveTokens: 16384, KeepRecentTokens: 20000}
}

func (d *decoder) compaction(o *object, c *Compaction) {
	if v := o.get("enabled"); v != nil {
		if b, ok := d.boolean(v, joinPath(o.path, "enabled")); ok {
			c.Enabled = b
		}
	}
	if n, ok := o.int("reserveTokens", 1); ok {
		c.ReserveTokens = n
	}
	if n, ok := o.int("keepRecentTokens", 1); ok {
		c.KeepRecentTokens = n
	}
	o.finish(compactionKeys...)
}

// boolean decodes true or false.
func (d *decoder) boolean(v *hujson.Value, path string) (bool, bool) {
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != 't' && lit.Kind() != 'f' {
		d.fail(path, "expected true or false, got %s", kindName(v))
		return false, false
	}
	return lit.Bool(), true
}
