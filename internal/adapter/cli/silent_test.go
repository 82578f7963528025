package cli

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

// TestSilentAnswerIsNotPrinted: a run whose answer is exactly [SILENT] shows no answer and no
// usage line in the terminal, however the answer streams in; an answer that only starts like
// it is shown whole.
func TestSilentAnswerIsNotPrinted(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name   string
		deltas []string
		want   string // "" means nothing of the answer shows
	}{
		{"silent", []string{"[SIL", "ENT]"}, ""},
		{"silent with space", []string{"\n", "[SILENT]", " \n"}, ""},
		{"starts like it", []string{"[SILENT]", " but one thing: disk is 91% full"}, "[SILENT] but one thing: disk is 91% full"},
		{"an ordinary answer", []string{"[", "see below]"}, "[see below]"},
		{"plain", []string{"Hello", " there"}, "Hello there"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			r := &reply{a: &Adapter{}, w: &writer{w: &out}}
			for _, d := range tt.deltas {
				r.Event(run.Event{Type: run.MessageUpdate, DeltaKind: "text", Delta: d})
			}
			r.Event(run.Event{Type: run.MessageEnd})
			r.Event(run.Event{Type: run.AgentEnd, StopReason: llm.StopEnd, Usage: &llm.Usage{Input: 10, Output: 2}})
			got := out.String()
			if tt.want == "" {
				if strings.Contains(got, "SILENT") || strings.Contains(got, "↳") {
					t.Errorf("printed %q; want nothing of a silent run", got)
				}
				return
			}
			if !strings.Contains(got, tt.want) || !strings.Contains(got, "↳") {
				t.Errorf("printed %q; want %q and the usage line", got, tt.want)
			}
		})
	}
}
