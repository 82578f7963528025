package main

import (
	"bufio"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"strings"
)

// gcPercent is the garbage collector's target for a mom that serves when GOGC is not set: the
// heap may grow to 1.5 times what is live instead of Go's default 2 times. mom waits on models
// and platforms, not on its CPU, and often runs on small machines, so it trades a little
// collection work for memory: with a thousand channels answering at once, peak memory falls
// from about 170 MB to 135 MB (BenchmarkThousandChannels). Short commands such as `mom run`
// keep Go's default: they end before the heap grows, and with a lower target the collector
// would run three times in a one-shot turn instead of once.
const gcPercent = 50

// memLimitShare is the part of the memory mom may use (its cgroup's limit, or the machine's
// memory when there is none) that becomes the garbage collector's soft limit when GOMEMLIMIT
// is not set. Near the limit the collector works harder and gives memory back sooner, so a
// container's limit is met by collecting instead of by the kernel's OOM killer; far below it
// nothing changes.
const memLimitShare = 0.75

// collectForServing applies gcPercent unless the person running mom chose with GOGC.
func collectForServing() {
	if _, set := os.LookupEnv("GOGC"); !set {
		debug.SetGCPercent(gcPercent)
	}
}

// tuneMemory applies the soft memory limit memLimitShare describes unless the person running
// mom chose with GOMEMLIMIT.
func tuneMemory() {
	if _, set := os.LookupEnv("GOMEMLIMIT"); !set {
		if avail := availableMemory(); avail > 0 {
			debug.SetMemoryLimit(int64(float64(avail) * memLimitShare))
		}
	}
}

// availableMemory is the memory mom may use in bytes: the limit of its cgroup (v2 or v1)
// when there is one below the machine's memory, otherwise the machine's memory; 0 when
// neither can be read.
func availableMemory() int64 {
	total := memTotal()
	if lim := cgroupLimit(); lim > 0 && (total == 0 || lim < total) {
		return lim
	}
	return total
}

// memTotal reads the machine's memory from /proc/meminfo; 0 when it cannot.
func memTotal() int64 {
	f, err := os.Open("/proc/meminfo")
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// cgroupLimit reads the memory limit of mom's cgroup: memory.max under cgroup v2, or
// memory.limit_in_bytes under v1. 0 means none was found or it is unlimited ("max", or v1's
// huge number, which the caller's comparison with the machine's memory discards).
func cgroupLimit() int64 {
	data, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(data)) {
		// "0::/path" is the v2 hierarchy; "4:memory:/path" is v1's memory controller.
		id, rest, _ := strings.Cut(strings.TrimSpace(line), ":")
		ctrl, path, _ := strings.Cut(rest, ":")
		var root, name string
		switch {
		case id == "0" && ctrl == "":
			root, name = "/sys/fs/cgroup", "memory.max"
		case strings.Contains(","+ctrl+",", ",memory,"):
			root, name = "/sys/fs/cgroup/memory", "memory.limit_in_bytes"
		default:
			continue
		}
		// Inside a container the cgroup's path is often missing from its own view of the
		// mount, whose root is then the container's cgroup.
		for _, file := range []string{filepath.Join(root, path, name), filepath.Join(root, name)} {
			if n := readLimit(file); n > 0 {
				return n
			}
		}
	}
	return 0
}

// readLimit reads a cgroup limit file; 0 for "max", a missing file or anything unreadable.
func readLimit(file string) int64 {
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	n, err := strconv.ParseInt(strings.TrimSpace(string(data)), 10, 64)
	if err != nil || n <= 0 {
		return 0
	}
	return n
}
