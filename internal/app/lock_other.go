//go:build !unix

package app

// lockDataDir does nothing where flock is not available; run one mom per data directory.
func lockDataDir(dir string) (release func(), err error) { return func() {}, nil }
