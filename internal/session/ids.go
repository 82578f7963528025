package session

import (
	"crypto/rand"
	"encoding/hex"
	"time"
)

// timeLayout is JavaScript's Date.toISOString: UTC, milliseconds, a literal Z.
const timeLayout = "2006-01-02T15:04:05.000Z"

// formatTime writes t as pi writes entry timestamps.
func formatTime(t time.Time) string { return t.UTC().Format(timeLayout) }

// parseTime reads an ISO timestamp, accepting any RFC 3339 form; a bad one reads as zero rather
// than losing the entry.
func parseTime(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}
	}
	return t
}

// newUUID returns a random (version 4) UUID, as pi's randomUUID does.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	var s [36]byte
	hex.Encode(s[0:8], b[0:4])
	s[8] = '-'
	hex.Encode(s[9:13], b[4:6])
	s[13] = '-'
	hex.Encode(s[14:18], b[6:8])
	s[18] = '-'
	hex.Encode(s[19:23], b[8:10])
	s[23] = '-'
	hex.Encode(s[24:36], b[10:16])
	return string(s[:])
}

// newEntryID returns an id not in taken: 8 hex digits like pi's, or after 100 collisions a full
// UUID, which is what pi falls back to.
func newEntryID(taken func(string) bool) string {
	for range 100 {
		var b [4]byte
		rand.Read(b[:])
		id := hex.EncodeToString(b[:])
		if !taken(id) {
			return id
		}
	}
	return newUUID()
}
