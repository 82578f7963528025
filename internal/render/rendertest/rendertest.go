// Package rendertest holds what the tests of render and of each platform's markup share: the
// golden files of a markup, the checks that a split keeps everything and its fences, the
// seeds of the fuzz tests, and a long realistic answer to render. It is imported by tests
// only, and imports nothing of mom's, so render's own tests can use it too.
package rendertest

import (
	"flag"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"
)

// update is the -update flag of a test binary that checks golden files (go test -update).
var update = flag.Bool("update", false, "rewrite the golden files in testdata instead of comparing with them")

// Mentions resolves the usernames that markup knows to their mention markup, for a test's
// render.Mentions; everyone else stays plain text.
func Mentions(markup map[string]string) func(username string) (string, bool) {
	return func(username string) (string, bool) {
		m, ok := markup[username]
		return m, ok
	}
}

// goldenInputs lists the markdown inputs of a markup's golden files, testdata/<dir>/*.md.
func goldenInputs(dir string) ([]string, error) {
	return filepath.Glob(filepath.Join("testdata", dir, "*.md"))
}

// Golden renders every testdata/<dir>/*.md with render and compares the result, with a final
// newline, to the file beside it with the same name and the extension ext; -update rewrites
// those files instead. render gets the subtest's t for checks of its own.
func Golden(t *testing.T, dir, ext string, render func(t *testing.T, md string) string) {
	t.Helper()
	inputs, err := goldenInputs(dir)
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs in testdata/%s (%v)", dir, err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			md, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := render(t, string(md)) + "\n"
			golden := strings.TrimSuffix(in, ".md") + ext
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run %s -update to create it)", err, strings.SplitN(t.Name(), "/", 2)[0])
			}
			if got != string(want) {
				t.Errorf("rendering %s differs from %s:\n%s", in, golden, lineDiff(string(want), got))
			}
		})
	}
}

// AddGoldenSeeds adds every golden input of testdata/<dir> to a fuzz test's corpus, once with
// each limit.
func AddGoldenSeeds(f *testing.F, dir string, limits ...int) {
	f.Helper()
	inputs, _ := goldenInputs(dir)
	for _, in := range inputs {
		md, err := os.ReadFile(in)
		if err != nil {
			f.Fatal(err)
		}
		for _, n := range limits {
			f.Add(string(md), n)
		}
	}
}

// lineDiff shows the first lines where want and got part ways.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < max(len(w), len(g)); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			return fmt.Sprintf("line %d:\nwant %q\ngot  %q", i+1, wl, gl)
		}
	}
	return "(same lines)"
}

// CheckRenderedSplit checks what a markdown-like markup rendered from md, and split on it
// with limit (render.Split): valid UTF-8 out for valid in, fences balanced in the whole and
// in every part, no part over the limit, nothing lost.
func CheckRenderedSplit(t *testing.T, md, out string, split func(text string, max int) []string, limit int) {
	t.Helper()
	if utf8.ValidString(md) && !utf8.ValidString(out) {
		t.Fatalf("valid input gave invalid UTF-8: %q", Clip(out))
	}
	if c := FenceCount(out); c%2 != 0 {
		t.Fatalf("output has %d fence lines: %q", c, Clip(out))
	}
	parts := split(out, limit)
	if err := CheckParts(out, parts, limit); err != nil {
		t.Fatalf("split(_, %d): %v\ntext %q", limit, err, Clip(out))
	}
	CheckFencesBalanced(t, parts)
}

// CheckLongAnswerSplit renders LongAnswer(50_000) with render and checks it and its split at
// limit as CheckRenderedSplit does; the split must give at least minParts parts, at least one
// of them reopening a code block the cut went through. It returns the rendered text.
func CheckLongAnswerSplit(t *testing.T, render func(md string) string, split func(text string, max int) []string, limit, minParts int) string {
	t.Helper()
	md := LongAnswer(50_000)
	text := render(md)
	CheckRenderedSplit(t, md, text, split, limit)
	parts := split(text, limit)
	reopened := 0
	for _, p := range parts[1:] {
		if strings.HasPrefix(p, "```\n") {
			reopened++
		}
	}
	if len(parts) < minParts || reopened == 0 {
		t.Errorf("got %d parts, %d reopening a code block; want at least %d and 1", len(parts), reopened, minParts)
	}
	return text
}

// CheckConcurrent checks that render, called from several goroutines at once, gives each the
// same text for the same long answer: a renderer keeps nothing between calls.
func CheckConcurrent(t *testing.T, render func(md string) string) {
	t.Helper()
	md := LongAnswer(20_000)
	want := render(md)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if got := render(md); got != want {
				t.Error("concurrent call gave a different result")
			}
		})
	}
	wg.Wait()
}

// CheckParts says what is wrong with parts as the result of render.Split(text, max): a part
// that is empty, longer than max, or starts or ends with whitespace a cut left behind; or
// text lost, repeated or reordered. The fence lines Split adds where it cuts through a code
// block are taken out before comparing; apart from those, parts joined must give text back
// with only spaces and line breaks missing, and those only between parts or before the first.
func CheckParts(text string, parts []string, limit int) error {
	if !hasNonSpace(text) {
		if parts != nil {
			return fmt.Errorf("got %d parts for blank text, want none", len(parts))
		}
		return nil
	}
	if len(parts) == 0 {
		return fmt.Errorf("got no parts for %d bytes of text", len(text))
	}
	for i, p := range parts {
		if n := utf8.RuneCountInString(p); n == 0 || n > limit {
			return fmt.Errorf("part %d has %d runes, want 1 to %d", i, n, limit)
		}
		first, _, _ := strings.Cut(p, "\n")
		if i > 0 && !hasNonSpace(first) {
			return fmt.Errorf("part %d starts with a blank line: %q", i, Clip(p))
		}
		if i < len(parts)-1 && strings.TrimRight(p, " \t\r\n") != p {
			return fmt.Errorf("part %d ends with whitespace: %q", i, Clip(p[max(0, len(p)-40):]))
		}
	}
	inFence := fenceOracle(text)
	failed := map[[2]int]bool{} // (part, offset) pairs known not to match
	var match func(i, at int) bool
	match = func(i, at int) bool {
		if i == len(parts) {
			return !hasNonSpace(text[at:])
		}
		if failed[[2]int{i, at}] {
			return false
		}
		for _, v := range contents(parts[i], i > 0 && inFence(at), i < len(parts)-1) {
			for k := at; k <= len(text); k++ {
				end := k + len(v.text)
				if strings.HasPrefix(text[k:], v.text) && (!v.closed || inFence(end)) && match(i+1, end) {
					return true
				}
				// Whitespace may be skipped where Split cut, and a run too long
				// to share a part with any text may be skipped anywhere.
				if k == len(text) || !strings.ContainsRune(" \t\r\n", rune(text[k])) {
					break
				}
			}
		}
		failed[[2]int{i, at}] = true
		return false
	}
	if !match(0, 0) {
		return fmt.Errorf("parts joined do not give the text back")
	}
	return nil
}

func hasNonSpace(s string) bool {
	return strings.TrimLeft(s, " \t\r\n") != ""
}

// content is what a part may hold of the text, and whether Split closed a code block
// after it.
type content struct {
	text   string
	closed bool
}

// contents lists what part may hold of the text: itself, or itself without the fence
// line Split reopened a code block with (when the text is inside one where the part
// begins), or without the "```" line Split closed one with (when there is a next part).
func contents(part string, reopened, more bool) []content {
	starts := []string{part}
	if first, rest, ok := strings.Cut(part, "\n"); reopened && ok && strings.HasPrefix(first, "```") {
		starts = append(starts, rest)
	}
	var out []content
	for _, s := range starts {
		out = append(out, content{text: s})
		if body, ok := strings.CutSuffix(s, "\n```"); more && ok {
			out = append(out, content{text: body, closed: true})
		}
	}
	return out
}

// fenceOracle returns whether offset x of text lies inside a code block: after an odd
// number of whole lines starting with ```.
func fenceOracle(text string) func(x int) bool {
	var ends []int
	start := 0
	for _, l := range strings.SplitAfter(text, "\n") {
		if strings.HasPrefix(l, "```") {
			ends = append(ends, start+len(strings.TrimSuffix(l, "\n")))
		}
		start += len(l)
	}
	return func(x int) bool { return sort.SearchInts(ends, x+1)%2 == 1 }
}

// FenceCount counts the lines of s that start with ```.
func FenceCount(s string) int {
	n := 0
	for _, l := range strings.Split(s, "\n") {
		if strings.HasPrefix(l, "```") {
			n++
		}
	}
	return n
}

// TextLines yields the lines of text outside its code blocks (lines starting with ``` open
// and close them, and are not yielded), without their line breaks, each with the byte offset
// in text where it starts: where a test looks for markup the platform would read.
func TextLines(text string) iter.Seq2[int, string] {
	return func(yield func(at int, line string) bool) {
		inFence, start := false, 0
		for _, line := range strings.SplitAfter(text, "\n") {
			at := start
			start += len(line)
			if strings.HasPrefix(line, "```") {
				inFence = !inFence
				continue
			}
			if !inFence && !yield(at, strings.TrimSuffix(line, "\n")) {
				return
			}
		}
	}
}

// CheckFencesBalanced fails t for each part with an odd number of fence lines, which would
// leave a code block open.
func CheckFencesBalanced(t *testing.T, parts []string) {
	t.Helper()
	for i, p := range parts {
		if n := FenceCount(p); n%2 != 0 {
			t.Errorf("part %d has %d fence lines, want an even number:\n%s", i, n, Clip(p))
		}
	}
}

// Clip shortens s for a failure message: its start and end, when it is long.
func Clip(s string) string {
	if len(s) > 300 {
		return s[:150] + " … " + s[len(s)-150:]
	}
	return s
}

// Abs is n without its sign, for a fuzzed limit; never negative, even for the smallest int.
func Abs(n int) int {
	if n < 0 {
		return -(n + 1)
	}
	return n
}

// EscapeMarkdown puts a backslash before every ASCII punctuation character of s, so that
// markdown reads all of s as text.
func EscapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && unicode.IsPunct(r) || r < 0x80 && unicode.IsSymbol(r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// LongAnswer builds a realistic model answer of at least size bytes: headings, prose with
// links and mentions (@alice, @bob.smith), nested lists, tables with unicode, and code
// blocks, some of them longer than 8,000 characters.
func LongAnswer(size int) string {
	pkgs := []string{"client", "store", "naïve/café", "日本語", "retry"}
	var b strings.Builder
	for i := 0; b.Len() < size; i++ {
		pkg := pkgs[i%len(pkgs)]
		fmt.Fprintf(&b, "## Step %d: fix the `%s` package\n\n", i+1, pkg)
		b.WriteString("Thanks @alice — I read **every** file. The *short* version: the retry loop in " +
			"`client.go` never resets its backoff when `err == nil && n < 0`; see " +
			"[the docs](https://pkg.go.dev/net/http#Client) and https://github.com/golang/go/issues/12345. " +
			"Ping @bob.smith if the numbers look off 😀.\n\n")
		b.WriteString("1. Reproduce it:\n   - run `go test -run TestRetry ./...`\n   - watch the logs\n" +
			"     - look for `backoff=0s`\n2. Fix it (see below)\n3. [x] Ship it\n\n")
		b.WriteString("| file | lines | status |\n|:-----|------:|:------:|\n" +
			"| `client.go` | 120 | ✅ fixed |\n| store/日本語.go | 8 | **todo** |\n| [readme](https://x.io/README.md) | 3 | ok |\n\n")
		lines := 12
		if i%4 == 1 {
			lines = 260 // a block longer than 8,000 characters
		}
		b.WriteString("```go\n")
		for l := range lines {
			fmt.Fprintf(&b, "\tif err := step%d(ctx, &cfg); err != nil && attempt < %d { // <retry>\n", l, l%7)
		}
		b.WriteString("```\n\n> **Note:** values < 0 & > 100 are clamped.\n\n---\n\n")
	}
	return b.String()
}
