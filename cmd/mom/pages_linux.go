package main

import (
	"fmt"
	"os"
	"reflect"
	"strconv"
	"strings"
	"syscall"
)

// releaseBinaryPages tells the kernel that the pages of mom's own binary that are mapped now
// need not stay mapped, and returns how many bytes of the binary's read-only mappings it
// covered. Starting mom runs the initialisation of every package it is built from, scattered
// over the whole binary, and the kernel maps 64 KB around each page touched; so a mom that
// has just started keeps most of its binary mapped (12 of 16 MB), although an idle mom uses
// a small part of it. MADV_DONTNEED only unmaps them from mom: the kernel keeps them in its
// page cache, as it would any file just read, and the next instruction that needs one maps it
// again from there (a minor fault, without reading the disk). Unmapped, they are cache the
// kernel may reclaim first when memory is short, rather than an executable's mapped pages,
// which it protects. Only mappings without write permission are advised: on the binary's
// writable data mapping, MADV_DONTNEED would throw away what mom wrote there.
func releaseBinaryPages() (int64, error) {
	maps, err := os.ReadFile("/proc/self/maps")
	if err != nil {
		return 0, fmt.Errorf("reading the process's mappings: %w", err)
	}
	regions, err := parseMaps(string(maps))
	if err != nil {
		return 0, err
	}
	// The binary is the file mapped where this function's code is: its path in the
	// mappings may be anything (a link, a name with spaces, a file replaced since).
	code := uint64(reflect.ValueOf(releaseBinaryPages).Pointer())
	var self mapping
	for _, r := range regions {
		if r.start <= code && code < r.end {
			self = r
		}
	}
	if self.inode == "0" || self.inode == "" {
		return 0, fmt.Errorf("no file mapping holds mom's code at %#x", code)
	}
	var advised int64
	for _, r := range regions {
		if r.dev != self.dev || r.inode != self.inode || strings.Contains(r.perms, "w") {
			continue
		}
		if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, uintptr(r.start), uintptr(r.end-r.start), syscall.MADV_DONTNEED); errno != 0 {
			return advised, fmt.Errorf("advising the kernel about %#x-%#x: %w", r.start, r.end, errno)
		}
		advised += int64(r.end - r.start)
	}
	return advised, nil
}

// mapping is one line of /proc/self/maps: an address range, its permissions, and the device
// and inode of the file mapped there ("0" for none).
type mapping struct {
	start, end        uint64
	perms, dev, inode string
}

// parseMaps reads the lines of /proc/self/maps (start-end perms offset dev inode [path]).
func parseMaps(text string) ([]mapping, error) {
	var out []mapping
	for line := range strings.Lines(text) {
		f := strings.Fields(line)
		if len(f) < 5 {
			continue
		}
		lo, hi, ok := strings.Cut(f[0], "-")
		start, err1 := strconv.ParseUint(lo, 16, 64)
		end, err2 := strconv.ParseUint(hi, 16, 64)
		if !ok || err1 != nil || err2 != nil || end < start {
			return nil, fmt.Errorf("reading the process's mappings: %q is not an address range", f[0])
		}
		out = append(out, mapping{start: start, end: end, perms: f[1], dev: f[3], inode: f[4]})
	}
	return out, nil
}
