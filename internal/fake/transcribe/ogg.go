package faketranscribe

import (
	"bytes"
	"encoding/binary"
	"time"
)

// OggOpus returns a voice note of length d as Telegram and WhatsApp send them: an Ogg stream
// (RFC 3533) holding Opus (RFC 7845): the OpusHead and OpusTags headers, then 20 ms frames of
// silence, with granule positions at 48 kHz after a pre-skip of 312 samples, and checksums.
func OggOpus(d time.Duration) []byte {
	const (
		preSkip         = 312
		samplesPerFrame = 960 // 20 ms at 48 kHz
		framesPerPage   = 50  // one second
	)
	var out bytes.Buffer
	page := func(headerType byte, granule uint64, seq uint32, packets [][]byte) {
		var lacing []byte
		var data []byte
		for _, p := range packets {
			n := len(p)
			for n >= 255 {
				lacing = append(lacing, 255)
				n -= 255
			}
			lacing = append(lacing, byte(n))
			data = append(data, p...)
		}
		h := make([]byte, 27, 27+len(lacing)+len(data))
		copy(h, "OggS")
		h[5] = headerType
		binary.LittleEndian.PutUint64(h[6:], granule)
		binary.LittleEndian.PutUint32(h[14:], 0x6d6f6d21) // the stream's serial number
		binary.LittleEndian.PutUint32(h[18:], seq)
		h[26] = byte(len(lacing))
		h = append(append(h, lacing...), data...)
		binary.LittleEndian.PutUint32(h[22:], oggCRC(h))
		out.Write(h)
	}
	head := []byte("OpusHead")
	head = append(head, 1, 1) // version 1, mono
	head = binary.LittleEndian.AppendUint16(head, preSkip)
	head = binary.LittleEndian.AppendUint32(head, 48000)
	head = append(head, 0, 0, 0)     // output gain 0, channel mapping family 0
	page(0x02, 0, 0, [][]byte{head}) // beginning of stream
	tags := []byte("OpusTags")
	tags = binary.LittleEndian.AppendUint32(tags, 4)
	tags = append(tags, "fake"...)
	tags = binary.LittleEndian.AppendUint32(tags, 0)
	page(0, 0, 1, [][]byte{tags})

	frames := int(d / (20 * time.Millisecond))
	silence := []byte{0xf8, 0xff, 0xfe} // a CELT frame of silence
	seq, done := uint32(2), 0
	for done < frames || done == 0 {
		n := min(framesPerPage, frames-done)
		packets := make([][]byte, max(n, 1))
		for i := range packets {
			packets[i] = silence
		}
		done += len(packets)
		var typ byte
		if done >= frames {
			typ = 0x04 // end of stream
		}
		page(typ, uint64(preSkip+done*samplesPerFrame), seq, packets)
		seq++
	}
	return out.Bytes()
}

// oggCRC is Ogg's page checksum: CRC-32 with the polynomial 0x04c11db7, not reflected, over
// the page with its checksum field zero.
func oggCRC(b []byte) uint32 {
	var crc uint32
	for _, c := range b {
		crc ^= uint32(c) << 24
		for range 8 {
			if crc&0x80000000 != 0 {
				crc = crc<<1 ^ 0x04c11db7
			} else {
				crc <<= 1
			}
		}
	}
	return crc
}
