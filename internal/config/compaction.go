package config

import (
	"github.com/tailscale/hujson"

	"github.com/mom-agent/mom/internal/compact"
)

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

// defaultCompaction is pi's: on, reserve 16,384 tokens, keep the newest 20,000.
func defaultCompaction() Compaction {
	return Compaction{Enabled: true, ReserveTokens: compact.DefaultReserveTokens, KeepRecentTokens: compact.DefaultKeepRecentTokens}
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
