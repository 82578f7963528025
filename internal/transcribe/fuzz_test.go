package transcribe

import (
	"bytes"
	"testing"
	"time"

	faketranscribe "github.com/mom-agent/mom/internal/fake/transcribe"
)

// FuzzDuration: the headers of a file people sent never crash the reader or make it read
// past the file, whatever they claim.
func FuzzDuration(f *testing.F) {
	f.Add(faketranscribe.OggOpus(2 * time.Second))
	f.Add([]byte("RIFF\x24\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x01\x00\x40\x1f\x00\x00\x40\x1f\x00\x00\x01\x00\x08\x00data\x00\x00\x00\x00"))
	f.Add([]byte("\x00\x00\x00\x10ftypM4A \x00\x00\x00\x00\x00\x00\x00\x10moov\x00\x00\x00\x08mvhd"))
	f.Fuzz(func(t *testing.T, data []byte) {
		d, ok := duration(bytes.NewReader(data), int64(len(data)))
		if !ok && d != 0 || d < 0 || d > maxSeconds*time.Second {
			t.Errorf("length %v, %v", d, ok)
		}
	})
}
