package config

import (
	"fmt"
	"math"
	"runtime"
)

// Bounds of the default for "maxConcurrentRuns".
const (
	runsPerCPU     = 16
	minDefaultRuns = 16
	maxDefaultRuns = 64
)

// DefaultMaxConcurrentRuns is how many runs may go at once across all channels when
// config.json does not say ("maxConcurrentRuns"): 16 for each CPU mom may use (GOMAXPROCS,
// which follows a container's CPU limit), at least 16 and at most 64; 32 on a two-CPU
// machine.
//
// A run mostly waits for the model, and costs mom itself little (about 0.1 MB; a thousand at
// once fit in 150 MB), so the limit is not about mom's memory. It bounds what runs cost
// elsewhere: the commands they start in the sandbox, which share this machine's CPUs (a build
// or a test suite per run), the model provider's concurrency and rate limits, and the money a
// flood of wake-ups would spend. Sixteen per CPU keeps a small machine answering a busy team
// without queueing anyone in normal use, while a flood of wake-ups or messages is held to a
// number of sandboxes the machine can carry; above 64 the provider's limits, not the
// machine, are what runs into, so a larger number must be asked for in config.json.
func DefaultMaxConcurrentRuns() int {
	return defaultRunsFor(runtime.GOMAXPROCS(0))
}

// defaultRunsFor is DefaultMaxConcurrentRuns for a machine with cpus CPUs.
func defaultRunsFor(cpus int) int {
	return min(max(runsPerCPU*cpus, minDefaultRuns), maxDefaultRuns)
}

// maxConcurrentRuns reads the top-level "maxConcurrentRuns".
func (d *decoder) maxConcurrentRuns(top *object, c *Config) {
	n, ok := top.int("maxConcurrentRuns", math.MinInt)
	if !ok {
		return
	}
	if n < 1 {
		d.fail("maxConcurrentRuns", "must be at least 1, got %d (there is no \"unlimited\": write the most runs this machine should carry at once, e.g. %d)",
			n, DefaultMaxConcurrentRuns())
		return
	}
	c.MaxConcurrentRuns = n
	c.runsFromFile = true
}

// runsSummary is the line of Summary about concurrent runs.
func (c *Config) runsSummary() string {
	if c.runsFromFile {
		return fmt.Sprintf("at most %d at once across channels", c.MaxConcurrentRuns)
	}
	return fmt.Sprintf("at most %d at once across channels (the default for %d CPUs; set \"maxConcurrentRuns\" to change)",
		c.MaxConcurrentRuns, runtime.GOMAXPROCS(0))
}
