package main

import (
	"os"
	"testing"
)

// written is in the binary's writable data mapping, which releaseBinaryPages must leave
// alone: were it advised too, what the process wrote there would revert to the file's bytes.
var written = [4096]byte{0: 1}

// TestReleaseBinaryPagesUnmapsOnlyReadOnlyPages: after the release fewer of the binary's
// pages are mapped, the process keeps running its code, and what it wrote to its data is
// still there.
func TestReleaseBinaryPagesUnmapsOnlyReadOnlyPages(t *testing.T) {
	written[0] = 2
	before := selfStatus(t)["RssFile"]
	advised, err := releaseBinaryPages()
	if err != nil {
		t.Fatal(err)
	}
	after := selfStatus(t)["RssFile"]
	if advised == 0 {
		t.Fatal("no mapping of the binary was advised")
	}
	if after >= before {
		t.Errorf("the binary's mapped pages went from %d to %d kB; want fewer", before, after)
	}
	if written[0] != 2 {
		t.Fatalf("the process's own write to its data was undone (%d): a writable mapping was advised", written[0])
	}
}

// TestParseMapsRejectsGarbage: a line that is not an address range is an error that quotes it.
func TestParseMapsRejectsGarbage(t *testing.T) {
	t.Parallel()
	got, err := parseMaps("00400000-00b09000 r-xp 00000000 fe:00 10012191 /usr/bin/mom with spaces\n" +
		"7ffc147fc000-7ffc1481d000 rw-p 00000000 00:00 0 [stack]\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].start != 0x400000 || got[0].end != 0xb09000 || got[0].perms != "r-xp" ||
		got[0].dev != "fe:00" || got[0].inode != "10012191" || got[1].inode != "0" {
		t.Errorf("parsed %+v", got)
	}
	if _, err := parseMaps("nonsense r-xp 0 fe:00 1\n"); err == nil {
		t.Error("a line without an address range parsed")
	}
}

// selfStatus reads this process's /proc/self/status figures in kB.
func selfStatus(t *testing.T) map[string]int {
	t.Helper()
	st, err := readProcStatus(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	return st
}
