package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// MaxComponent is the longest path component PathComponent makes, in bytes: under the 255
// most file systems allow, with room for suffixes.
const MaxComponent = 200

// ErrShortened is returned by ParsePathComponent for a component that PathComponent had to
// shorten; the original name cannot be recovered from it.
var ErrShortened = errors.New("the name was shortened and cannot be recovered")

// PathComponent turns a name (an adapter name or a platform's channel id) into one path
// component that is safe on any file system and cannot escape its directory. Letters, digits,
// '_', '-' and '.' stay as they are, except a leading '.'; every other byte becomes %XX
// (uppercase hex), so "..", "/", "\" and NUL are harmless and the mapping is reversible by
// ParsePathComponent. A result longer than MaxComponent bytes is cut, and the cut part is
// replaced by '~' and 32 hex digits of the SHA-256 of the whole name, which keeps distinct
// names distinct but can no longer be reversed. Real ids (C0A34FL8PMH, 19-digit snowflakes,
// -1001234567890) are far shorter than that.
func PathComponent(name string) (string, error) {
	if name == "" {
		return "", errors.New("an empty name cannot name a directory")
	}
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); i++ {
		c := name[i]
		if keep(c) && !(c == '.' && i == 0) {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(upperHex[c>>4])
		b.WriteByte(upperHex[c&15])
	}
	enc := b.String()
	if len(enc) <= MaxComponent {
		return enc, nil
	}
	sum := sha256.Sum256([]byte(name))
	tail := "~" + hex.EncodeToString(sum[:16])
	cut := MaxComponent - len(tail)
	if p := strings.LastIndexByte(enc[:cut], '%'); p > cut-3 {
		cut = p // don't split a %XX escape
	}
	return enc[:cut] + tail, nil
}

// ParsePathComponent returns the name PathComponent turned into c. It fails for a component
// PathComponent would not have made (so foreign directories are not mistaken for channels),
// and with ErrShortened for a shortened one.
func ParsePathComponent(c string) (string, error) {
	if c == "" {
		return "", errors.New("an empty path component names nothing")
	}
	if strings.IndexByte(c, '~') >= 0 {
		return "", fmt.Errorf("directory %q: %w", c, ErrShortened)
	}
	out := make([]byte, 0, len(c))
	for i := 0; i < len(c); i++ {
		switch ch := c[i]; {
		case ch == '%':
			if i+2 >= len(c) || unhex(c[i+1]) < 0 || unhex(c[i+2]) < 0 {
				return "", fmt.Errorf("directory %q has a broken %%-escape", c)
			}
			out = append(out, byte(unhex(c[i+1])<<4|unhex(c[i+2])))
			i += 2
		case keep(ch):
			out = append(out, ch)
		default:
			return "", fmt.Errorf("directory %q is not an escaped name", c)
		}
	}
	name := string(out)
	if enc, _ := PathComponent(name); enc != c {
		return "", fmt.Errorf("directory %q is not an escaped name (it would be %q)", c, enc)
	}
	return name, nil
}

const upperHex = "0123456789ABCDEF"

func keep(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-' || c == '.'
}

func unhex(c byte) int {
	switch {
	case '0' <= c && c <= '9':
		return int(c - '0')
	case 'A' <= c && c <= 'F':
		return int(c-'A') + 10
	}
	return -1 // lowercase is not canonical
}
