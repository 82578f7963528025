package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/confined"
)

// MaxMemory is the most of a MEMORY.md file that Memory returns, in bytes. Memory goes into
// every system prompt, so a runaway file must not eat the context window.
const MaxMemory = 64 << 10

// readMemory returns the file name in dir cut at MaxMemory bytes, on a character boundary,
// with a note telling the model the file was cut; "" for a missing file. A link in its place
// is refused: it could put any file of the host (config.json, a key) into the prompt.
func readMemory(dir confined.Dir, name string) (string, error) {
	f, err := dir.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	path := filepath.Join(dir.Path(), name)
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
