package render

import (
	"testing"

	"github.com/mom-agent/mom/internal/config"
)

// TestSettingsSpellConfigWords: adapters turn config.json's "verbosity" and "replyIn" into
// render's types by conversion, which is right only while both spell every value alike.
func TestSettingsSpellConfigWords(t *testing.T) {
	t.Parallel()
	verbosity := map[config.Verbosity]Verbosity{config.Quiet: Quiet, config.Normal: Normal, config.Verbose: Verbose}
	for in, want := range verbosity {
		if got := Verbosity(in); got != want {
			t.Errorf("verbosity %q converts to %q, want %q", in, got, want)
		}
	}
	replyIn := map[config.ReplyIn]ReplyIn{config.ReplyInThread: ReplyInThread, config.ReplyInChannel: ReplyInChannel}
	for in, want := range replyIn {
		if got := ReplyIn(in); got != want {
			t.Errorf("replyIn %q converts to %q, want %q", in, got, want)
		}
	}
}
