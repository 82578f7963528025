package chat

import (
	"context"
	"strings"
	"testing"
)

func TestRoutinesStopEndsAndWaits(t *testing.T) {
	var r Routines
	ctx, cancel := context.WithCancel(context.Background())
	run := r.Begin(ctx)
	cancel() // Start's context ending must not end the routines
	if run.Err() != nil {
		t.Fatal("the routines' context ended with Start's")
	}
	lanes := NewLanes()
	finished := make(chan string, 2)
	r.Go(func() { <-run.Done(); finished <- "routine" })
	lanes.Run("C1", func() { <-run.Done(); finished <- "lane" })
	if err := r.Stop(context.Background(), "test adapter", lanes); err != nil {
		t.Fatal(err)
	}
	if len(finished) != 2 {
		t.Errorf("Stop returned with %d of 2 goroutines finished", len(finished))
	}
}

func TestRoutinesStopGivesUp(t *testing.T) {
	var r Routines
	r.Begin(context.Background())
	release := make(chan struct{})
	defer close(release)
	r.Go(func() { <-release }) // ignores the context
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	err := r.Stop(ctx, "slack adapter acme", nil)
	if err == nil || !strings.HasPrefix(err.Error(), "slack adapter acme did not stop in time") {
		t.Errorf("Stop = %v, want it to name the adapter that did not stop", err)
	}
}

func TestRoutinesAbort(t *testing.T) {
	var r Routines
	run := r.Begin(context.Background())
	done := false
	r.Go(func() { <-run.Done(); done = true })
	r.Abort()
	if !done {
		t.Error("Abort returned before the routine finished")
	}
}
