//go:build !race

package main

// raceEnabled says the tests run with the race detector, so the binary under test gets it too.
const raceEnabled = false
