package main

import (
	"os"
	"runtime/debug"
)

// gcPercent is the garbage collector's target when GOGC is not set: the heap may grow to
// 1.5 times what is live instead of Go's default 2 times. mom waits on models and platforms,
// not on its CPU, and often runs on small machines, so it trades a little collection work
// for memory: with a thousand channels answering at once, peak memory falls from about
// 170 MB to 135 MB (BenchmarkThousandChannels).
const gcPercent = 50

// tuneMemory applies gcPercent unless the person running mom chose with GOGC.
func tuneMemory() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}
