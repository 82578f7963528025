package config

import (
	"testing"

	"github.com/mom-agent/mom/internal/compact"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
)

// TestSettingsMatchWhoAppliesThem: config imports nothing of mom's, so the packages that apply
// its settings have types and defaults of their own, and the app and the adapters hand the
// settings over by conversion (llm.ThinkingLevel(m.Thinking), render.Verbosity(v),
// render.ReplyIn(r), agent.CompactionSettings(c)). That is right only while both sides spell
// every value alike and mean the same by a missing "compaction" section.
func TestSettingsMatchWhoAppliesThem(t *testing.T) {
	t.Parallel()
	thinking := map[ThinkingLevel]llm.ThinkingLevel{ThinkingOff: llm.ThinkingOff, ThinkingLow: llm.ThinkingLow,
		ThinkingMedium: llm.ThinkingMedium, ThinkingHigh: llm.ThinkingHigh}
	for in, want := range thinking {
		if got := llm.ThinkingLevel(in); got != want {
			t.Errorf("thinking %q converts to %q, want %q", in, got, want)
		}
	}
	verbosity := map[Verbosity]render.Verbosity{Quiet: render.Quiet, Normal: render.Normal, Verbose: render.Verbose}
	for in, want := range verbosity {
		if got := render.Verbosity(in); got != want {
			t.Errorf("verbosity %q converts to %q, want %q", in, got, want)
		}
	}
	replyIn := map[ReplyIn]render.ReplyIn{ReplyInThread: render.ReplyInThread, ReplyInChannel: render.ReplyInChannel}
	for in, want := range replyIn {
		if got := render.ReplyIn(in); got != want {
			t.Errorf("replyIn %q converts to %q, want %q", in, got, want)
		}
	}
	d, pi := defaultCompaction(), compact.Defaults()
	if d.ReserveTokens != pi.ReserveTokens || d.KeepRecentTokens != pi.KeepRecentTokens {
		t.Errorf("config.json's compaction defaults %+v differ from package compact's %+v", d, pi)
	}
}
