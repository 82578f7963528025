// Package render turns a run's events (package run) into what people see on a platform: on
// an adapter's raw chat.Surface in its chat.Dialect, a run's reply (NewReply: progress,
// details, usage, long answers) and the hub's short notices (Post). It also holds what the
// platforms' markups share: the one walk over the model's markdown (Markdown), which each
// platform's package spells with a Markup of its own, the pieces of spelling more than one
// platform uses, and cutting text to a platform's length limit (Split). It knows no platform
// by name. This file holds the usage summary every adapter shows at the end of a run.
package render

import (
	"fmt"
	"strings"

	"github.com/mom-agent/mom/internal/run"
)

// Tokens formats a token count the way pi does: 999, 1.2k, 12k, 1.2M.
func Tokens(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d", n)
	case n < 10_000:
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	case n < 1_000_000:
		return fmt.Sprintf("%dk", (n+500)/1000)
	default:
		return fmt.Sprintf("%.1fM", float64(n)/1_000_000)
	}
}

// Cost formats dollars with enough digits to tell small runs apart.
func Cost(usd float64) string {
	if usd < 1 {
		return fmt.Sprintf("$%.4f", usd)
	}
	return fmt.Sprintf("$%.2f", usd)
}

// UsageLine summarizes an agent_end event on one line:
// "3.1k in, 120 out · cache 2.0k read, 0 write · context 5.2k of 200k (2.6%) · $0.0123".
// It returns "" when the run used no tokens.
func UsageLine(ev run.Event) string {
	if ev.Usage == nil {
		return ""
	}
	u := *ev.Usage
	if u.Input+u.Output+u.CacheRead+u.CacheWrite == 0 {
		return ""
	}
	parts := []string{fmt.Sprintf("%s in, %s out", Tokens(u.Input), Tokens(u.Output))}
	if u.CacheRead+u.CacheWrite > 0 {
		parts = append(parts, fmt.Sprintf("cache %s read, %s write", Tokens(u.CacheRead), Tokens(u.CacheWrite)))
	}
	if ev.ContextWindow > 0 && ev.ContextTokens > 0 {
		parts = append(parts, fmt.Sprintf("context %s of %s (%.1f%%)", Tokens(ev.ContextTokens),
			Tokens(ev.ContextWindow), 100*float64(ev.ContextTokens)/float64(ev.ContextWindow)))
	}
	if u.Cost.Total > 0 {
		parts = append(parts, Cost(u.Cost.Total))
	}
	return strings.Join(parts, " · ")
}
