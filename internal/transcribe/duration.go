package transcribe

import (
	"bytes"
	"encoding/binary"
	"io"
	"time"
)

// The length of an audio file is read from its container before it is sent, so that a file
// over the limit is refused without paying for it. Voice notes (Telegram, WhatsApp) are Ogg
// Opus; WAV and MPEG-4 (m4a, mp4) say their length in a header. For other containers (mp3,
// webm, flac) the length is unknown until the service reports it.

// duration reads the length of the audio in r (of size bytes), or reports that it cannot.
func duration(r io.ReaderAt, size int64) (time.Duration, bool) {
	var magic [12]byte
	if _, err := r.ReadAt(magic[:], 0); err != nil {
		return 0, false
	}
	switch {
	case bytes.Equal(magic[:4], []byte("OggS")):
		return oggDuration(r, size)
	case bytes.Equal(magic[:4], []byte("RIFF")) && bytes.Equal(magic[8:12], []byte("WAVE")):
		return wavDuration(r, size)
	case bytes.Equal(magic[4:8], []byte("ftyp")):
		return mp4Duration(r, size)
	}
	return 0, false
}

// maxSeconds caps what a header may claim (about 115 days), far beyond any recording, so that
// a damaged or hostile one cannot overflow a Duration; such a file is then simply too long.
const maxSeconds = 1e7

// seconds turns n units of 1/rate second into a duration.
func seconds(n, rate uint64) time.Duration {
	if rate == 0 {
		return 0
	}
	return time.Duration(min(float64(n)/float64(rate), maxSeconds) * float64(time.Second))
}

// oggPageHeader is the fixed part of an Ogg page header (RFC 3533 section 6).
const oggPageHeader = 27

// oggDuration reads an Ogg Opus or Vorbis stream's length: the granule position of its last
// page, in samples at the rate its first packet names (Opus: always 48 kHz, less the
// pre-skip).
func oggDuration(r io.ReaderAt, size int64) (time.Duration, bool) {
	first := make([]byte, 512)
	n, _ := r.ReadAt(first, 0)
	first = first[:n]
	if len(first) < oggPageHeader || int(oggPageHeader)+int(first[26]) > len(first) {
		return 0, false
	}
	packet := first[oggPageHeader+int(first[26]):]
	var rate, skip uint64
	switch {
	case len(packet) >= 12 && bytes.HasPrefix(packet, []byte("OpusHead")):
		rate, skip = 48000, uint64(binary.LittleEndian.Uint16(packet[10:12]))
	case len(packet) >= 16 && bytes.HasPrefix(packet, []byte("\x01vorbis")):
		rate = uint64(binary.LittleEndian.Uint32(packet[12:16]))
	default:
		return 0, false
	}
	granule, ok := lastGranule(r, size)
	if !ok || granule < skip {
		return 0, false
	}
	return seconds(granule-skip, rate), true
}

// maxOggPage is the largest an Ogg page can be: its header, 255 lacing values and 255
// segments of 255 bytes.
const maxOggPage = oggPageHeader + 255 + 255*255

// lastGranule finds the last page in the file's tail whose granule position is set.
func lastGranule(r io.ReaderAt, size int64) (uint64, bool) {
	start := max(0, size-2*maxOggPage)
	tail := make([]byte, size-start)
	if n, err := r.ReadAt(tail, start); err != nil && !(err == io.EOF && int64(n) == size-start) {
		return 0, false
	}
	for i := bytes.LastIndex(tail, []byte("OggS")); i >= 0; i = bytes.LastIndex(tail[:i], []byte("OggS")) {
		if i+oggPageHeader > len(tail) || tail[i+4] != 0 {
			continue // cut off, or not a page (version 0) but bytes that look like one
		}
		g := binary.LittleEndian.Uint64(tail[i+6 : i+14])
		if g != ^uint64(0) { // -1: no packet ends on this page
			return g, true
		}
	}
	return 0, false
}

// wavDuration reads a WAV file's length: the size of its data chunk over the byte rate of its
// fmt chunk.
func wavDuration(r io.ReaderAt, size int64) (time.Duration, bool) {
	var byteRate uint64
	for off := int64(12); off+8 <= size; {
		var hdr [8]byte
		if _, err := r.ReadAt(hdr[:], off); err != nil {
			return 0, false
		}
		id, n := string(hdr[:4]), int64(binary.LittleEndian.Uint32(hdr[4:8]))
		switch id {
		case "fmt ":
			var f [16]byte
			if n < 16 {
				return 0, false
			}
			if _, err := r.ReadAt(f[:], off+8); err != nil {
				return 0, false
			}
			byteRate = uint64(binary.LittleEndian.Uint32(f[8:12]))
		case "data":
			if byteRate == 0 {
				return 0, false
			}
			return seconds(uint64(min(n, size-off-8)), byteRate), true
		}
		off += 8 + n + n%2 // chunks are padded to an even size
	}
	return 0, false
}

// mp4Duration reads an MPEG-4 file's length from the movie header (moov/mvhd, ISO 14496-12),
// wherever among the top-level boxes moov is.
func mp4Duration(r io.ReaderAt, size int64) (time.Duration, bool) {
	moov, moovSize, ok := findBox(r, 0, size, "moov")
	if !ok {
		return 0, false
	}
	mvhd, _, ok := findBox(r, moov, moov+moovSize, "mvhd")
	if !ok {
		return 0, false
	}
	var b [32]byte
	if _, err := r.ReadAt(b[:], mvhd); err != nil {
		return 0, false
	}
	// version, flags; then for version 1 64-bit times, else 32-bit ones.
	if b[0] == 1 {
		return seconds(binary.BigEndian.Uint64(b[24:32]), uint64(binary.BigEndian.Uint32(b[20:24]))), true
	}
	return seconds(uint64(binary.BigEndian.Uint32(b[16:20])), uint64(binary.BigEndian.Uint32(b[12:16]))), true
}

// findBox finds the box of type kind among the boxes between from and to, and returns where
// its content starts and how long it is.
func findBox(r io.ReaderAt, from, to int64, kind string) (start, length int64, ok bool) {
	for off := from; off+8 <= to; {
		var hdr [16]byte
		if _, err := r.ReadAt(hdr[:8], off); err != nil {
			return 0, 0, false
		}
		n, head := int64(binary.BigEndian.Uint32(hdr[:4])), int64(8)
		switch n {
		case 0: // to the end
			n = to - off
		case 1: // a 64-bit size follows the type
			if _, err := r.ReadAt(hdr[8:16], off+8); err != nil {
				return 0, 0, false
			}
			n, head = int64(binary.BigEndian.Uint64(hdr[8:16])), 16
		}
		if n < head || off+n > to {
			return 0, 0, false
		}
		if string(hdr[4:8]) == kind {
			return off + head, n - head, true
		}
		off += n
	}
	return 0, 0, false
}
