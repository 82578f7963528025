//go:build !linux

package main

// releaseBinaryPages is a Linux refinement (see pages_linux.go); elsewhere the kernel decides
// alone which of the binary's pages stay mapped.
func releaseBinaryPages() (int64, error) { return 0, nil }
