package hub

import (
	"slices"
	"testing"

	"github.com/mom-agent/mom/internal/config"
)

// TestBusyPoliciesWhileARunIsGoing: a trigger that arrives while its channel's run is going is
// refused with a hint, queued for a run of its own, or handed to the run at its next step, as
// the adapter's busy policy says; each way the person is told which.
func TestBusyPoliciesWhileARunIsGoing(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		busy    config.BusyPolicy
		notice  string
		runs    int
		steered []string
	}{
		{config.BusyReject, "C1: _Already working. Say `@mom stop` to cancel._", 1, nil},
		{config.BusyQueue, "C1: _Queued: I'll get to this when I'm done._", 2, nil},
		{config.BusySteer, "C1: _Noted: I'll take this into account at my next step._", 1, []string{"and this too"}},
	} {
		t.Run(string(tt.busy), func(t *testing.T) {
			t.Parallel()
			r := newHubRig(t, config.AdapterEntry{Busy: tt.busy, Groups: open})
			hold := make(chan struct{})
			r.runner.holdUntil(hold)
			r.receive(t, msg("1", "bea", "long job", true, false))
			r.runner.waitRuns(t, 1)
			r.receive(t, msg("2", "bea", "and this too", true, false))
			poll(t, "the busy notice", func() bool {
				posts, _ := r.plat.snapshot()
				return slices.Contains(posts, tt.notice)
			})
			close(hold)
			r.idle(t)
			if n := len(r.runner.requests()); n != tt.runs {
				t.Errorf("%d runs, want %d", n, tt.runs)
			}
			if got := r.runner.steeredTexts(); !slices.Equal(got, tt.steered) {
				t.Errorf("handed to the run: %q, want %q", got, tt.steered)
			}
		})
	}
}
