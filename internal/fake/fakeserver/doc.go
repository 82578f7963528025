// Package fakeserver holds what the loopback fakes of chat services (fakeslack, fakediscord,
// faketelegram) share and what is the same whatever the protocol: a Recorder that wakes tests
// waiting on the fake's state and collects the protocol mistakes the client made, Select,
// which picks a fake's recorded calls by name, ReadParts, which reads a multipart/form-data
// body whole, Limits, which refuses calls as a rate-limited service does and spots a
// client that comes back before the wait it was told, and Stranger, a server that is no
// platform's and records what reached it.
//
// What a fake records and what counts as a mistake stay in the fake: this package knows no
// protocol.
package fakeserver
