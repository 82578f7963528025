package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"unicode/utf8"
)

// MaxMemory is the most of a MEMORY.md file that Memory returns, in bytes. Memory goes into
// every system prompt, so a runaway file must not eat the context window.
const MaxMemory = 64 << 10

// readMemory returns the file at path cut at MaxMemory bytes, on a character boundary, with a
// note telling the model the file was cut; "" for a missing file.
func readMemory(path string) (string, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read memory %s: %w", path, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxMemory+1))
	if err != nil {
		return "", fmt.Errorf("read memory %s: %w", path, err)
	}
	if len(data) <= MaxMemory {
		return string(data), nil
	}
	cut := MaxMemory
	for cut > MaxMemory-utf8.UTFMax && !utf8.RuneStart(data[cut]) {
		cut--
	}
	size := int64(-1)
	if st, err := f.Stat(); err == nil {
		size = st.Size()
	}
	return string(data[:cut]) + fmt.Sprintf(
		"\n\n[%s is %d bytes; only the first %d are shown. Read the file for the rest, and make it shorter.]",
		filepath.Base(path), size, cut), nil
}
