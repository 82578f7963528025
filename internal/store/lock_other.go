//go:build !unix

package store

// Lock does nothing where flock is not available; run one mom per data directory.
func Lock(dir string) (release func(), err error) { return func() {}, nil }
