package main

import "testing"

// TestQuietSpellReleasesOnceAfterABurst: memory is given back once, quietFor after a burst of
// allocation ends; not while work goes on, not after a burst too small to matter, and not
// again until more work has been done.
func TestQuietSpellReleasesOnceAfterABurst(t *testing.T) {
	t.Parallel()
	const quietSamples = int(quietFor / idleCheck)
	total := uint64(1 << 30)
	q := newQuietSpell(total)
	step := func(allocated uint64) bool {
		total += allocated
		return q.observe(total)
	}

	// An idle mom with keep-alives: quiet, but nothing worth giving back.
	for i := range 3 * quietSamples {
		if step(100 << 10) {
			t.Fatalf("released at sample %d of an idle mom that allocated nothing to speak of", i)
		}
	}
	// A burst of runs: never while it lasts.
	for i := range 10 {
		if step(50 << 20) {
			t.Fatalf("released at sample %d while runs were allocating", i)
		}
	}
	// Then quiet: the release comes at the quietFor-th quiet sample, not before.
	for i := 1; i < quietSamples; i++ {
		if step(0) {
			t.Fatalf("released after %d quiet samples; want %d", i, quietSamples)
		}
	}
	if !step(0) {
		t.Fatalf("no release after %d quiet samples following a 500 MB burst", quietSamples)
	}
	q.released(total + 4096)
	total += 4096
	for i := range 3 * quietSamples {
		if step(0) {
			t.Fatalf("released again at quiet sample %d with nothing allocated since", i)
		}
	}
	// A burst smaller than releaseAfter is not worth a full collection.
	step(releaseAfter / 2)
	for i := range 3 * quietSamples {
		if step(0) {
			t.Fatalf("released at sample %d after only %d bytes of work", i, releaseAfter/2)
		}
	}
	// More work crosses the threshold: one more release after the next quiet spell.
	step(releaseAfter)
	released := false
	for range quietSamples {
		released = step(0) || released
	}
	if !released {
		t.Error("no release after a second burst that took the total past releaseAfter")
	}
}
