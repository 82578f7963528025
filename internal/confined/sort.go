package confined

import (
	"io/fs"
	"slices"
	"strings"
)

// sortEntries orders directory entries by name, as os.ReadDir does.
func sortEntries(entries []fs.DirEntry) {
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
}
