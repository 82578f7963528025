package jsonl

import "bytes"

// unescapeHTML undoes encoding/json's \u003c, \u003e and \u0026 escapes in b, in place.
// Custom MarshalJSON methods call json.Marshal, which always escapes, so an Encoder's
// SetEscapeHTML(false) alone cannot turn it off. In valid JSON a backslash always starts an
// escape, so walking escape by escape never mistakes an escaped backslash for one.
func unescapeHTML(b []byte) []byte {
	i := bytes.IndexByte(b, '\\')
	if i < 0 {
		return b
	}
	out := b[:i]
	for i < len(b) {
		c := b[i]
		if c != '\\' {
			j := bytes.IndexByte(b[i:], '\\')
			if j < 0 {
				out = append(out, b[i:]...)
				break
			}
			out = append(out, b[i:i+j]...)
			i += j
			continue
		}
		if i+6 <= len(b) && b[i+1] == 'u' && b[i+2] == '0' && b[i+3] == '0' {
			switch string(b[i+4 : i+6]) {
			case "3c":
				out = append(out, '<')
				i += 6
				continue
			case "3e":
				out = append(out, '>')
				i += 6
				continue
			case "26":
				out = append(out, '&')
				i += 6
				continue
			}
		}
		if i+1 < len(b) {
			out = append(out, c, b[i+1])
			i += 2
		} else {
			out = append(out, c)
			i++
		}
	}
	return out
}
