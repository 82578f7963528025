package main

import (
	"os"
	"path/filepath"
	"testing"
)

func TestReadLimitUnderstandsCgroupFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, c := range []struct {
		content string
		want    int64
	}{
		{"max\n", 0},               // cgroup v2 without a limit
		{"268435456\n", 268435456}, // 256 MiB
		{"9223372036854771712\n", 9223372036854771712}, // v1 without a limit: availableMemory discards it
		{"", 0},
		{"-1", 0},
	} {
		file := filepath.Join(dir, "memory.max")
		if err := os.WriteFile(file, []byte(c.content), 0o644); err != nil {
			t.Fatal(err)
		}
		if got := readLimit(file); got != c.want {
			t.Errorf("readLimit(%q) = %d; want %d", c.content, got, c.want)
		}
	}
	if got := readLimit(filepath.Join(dir, "missing")); got != 0 {
		t.Errorf("readLimit of a missing file = %d; want 0", got)
	}
}

func TestAvailableMemoryIsNeverMoreThanTheMachine(t *testing.T) {
	t.Parallel()
	total := memTotal()
	if total == 0 {
		t.Skip("no /proc/meminfo here: mom then sets no memory limit of its own")
	}
	if got := availableMemory(); got <= 0 || got > total {
		t.Errorf("availableMemory() = %d; want between 1 and the machine's %d", got, total)
	}
}
