package pimport

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/confined"
)

// BenchmarkConvertLog converts an old channel's log of 10,000 lines (two people's, one
// mom's), as the import does, into mom's format.
func BenchmarkConvertLog(b *testing.B) {
	src := b.TempDir()
	var sb strings.Builder
	for i := range 10000 {
		if i%3 == 2 {
			fmt.Fprintf(&sb, `{"date":"2025-11-24T16:00:00.000Z","ts":"%d.000100","user":"bot","text":"answer %d with some words","attachments":[],"isBot":true}`+"\n", 1764000000+i, i)
			continue
		}
		fmt.Fprintf(&sb, `{"date":"2025-11-24T16:00:00.000Z","ts":"%d.000100","user":"U0ADA","userName":"ada","displayName":"Ada","text":"message %d with some words","attachments":[],"isBot":false}`+"\n", 1764000000+i, i)
	}
	os.WriteFile(filepath.Join(src, logFile), []byte(sb.String()), 0o644)
	im := &importer{ctx: context.Background()}
	b.SetBytes(int64(sb.Len()))
	b.ResetTimer()
	for range b.N {
		dst := b.TempDir()
		conv := &logConverter{oldName: "C1", channel: "C1", ids: make(map[string]int)}
		var res ChannelResult
		if _, err := im.convertLog(confined.Root(src), confined.Root(dst), conv, &res, func(s string) string { return s }); err != nil || res.Lines != 10000 {
			b.Fatal(err, res.Lines)
		}
	}
}
