//go:build !nowhatsapp

package whatsapp

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/render/rendertest"
)

// markupMentions knows three people, spelled as WhatsApp mentions (an @ and the number);
// everyone else stays plain text.
var markupMentions = rendertest.Mentions(map[string]string{"alice": "@4366012345", "bob.smith": "@4915123456", "john_doe": "@14155550123"})

// wj is the word joiner that guards literal marks, for writing expectations.
const wj = "\u2060"

// TestMarkupGolden renders testdata/markup/*.md (the same inputs as the other platforms'
// goldens) and compares with the .txt beside each; -update rewrites them.
func TestMarkupGolden(t *testing.T) {
	t.Parallel()
	rendertest.Golden(t, "markup", ".txt", func(_ *testing.T, md string) string { return Markup(md, markupMentions) })
}

func TestMarkup(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, md, want string }{
		{"bold italic strike", "**b** _i_ ~~s~~", "*b* _i_ ~s~"},
		{"underscores and stars", "__bold__ and *it*", "*bold* and _it_"},
		{"bold before punctuation", "It is **done**. Really (**done**)!", "It is *done*. Really (*done*)!"},
		{"bold italic", "***both***", "*_both_*"},
		{"italic in bold", "**bold *and it* here**", "*bold _and it_ here*"},
		{"bold in bold", "**a **b** c**", "*a b c*"},
		{"bold across a line break", "**one\ntwo**", "*one*\n*two*"},
		{"inline code", "run `go test ./...` now", "run `go test ./...` now"},
		{"code keeps its marks", "`a_b *c*`", "`a_b *c*`"},
		{"code with a backtick", "``a`b``", "a`b"},
		{"code with a backtick at an edge", "`` a` ``", "a" + wj + "`" + wj},
		{"code with edge spaces", "`` `x` ``", wj + "`" + wj + "x" + wj + "`" + wj},
		{"blank code", "a ` ` b", "a   b"},
		{"code block drops its language", "```go\nx := a*b\n```", "```\nx := a*b\n```"},
		{"fence inside code", "````\n```\n````", "```\n``\u200b`\n```"},
		{"link", "[the docs](https://x.io/a_b)", "the docs (https://x.io/a_b)"},
		{"link text is its url", "[https://x.io](https://x.io)", "https://x.io"},
		{"link text is its host", "[x.io](https://x.io)", "https://x.io"},
		{"bare url", "see https://x.io/a_b.", "see https://x.io/a_b."},
		{"www url", "see www.x.io now", "see http://www.x.io now"},
		{"url with marks at word edges", "[t](https://x.io/_a/*/b~) https://go.dev/doc/effective_go", "t (https://x.io/%5Fa/%2A/b%7E) https://go.dev/doc/effective_go"},
		{"url in bold", "**see https://x.io/_a**", "*see https://x.io/%5Fa*"},
		{"url with space and parens", "[t](<https://x.io/a b(c)>)", "t (https://x.io/a%20b%28c%29)"},
		{"email", "mail bob@example.com", "mail bob@example.com"},
		{"mailto with text", "[Bob](mailto:bob@example.com)", "Bob (bob@example.com)"},
		{"link text escaped", "[\\*a\\*](https://x.io)", wj + "*" + wj + "a" + wj + "*" + wj + " (https://x.io)"},
		{"image", "![a cat](https://x.io/cat.png)", "a cat (https://x.io/cat.png)"},
		{"mention", "ask @alice.", "ask @4366012345."},
		{"mention with escaped underscore", `hi @john\_doe!`, "hi @14155550123!"},
		{"unknown mention", "ask @zed.", "ask @zed."},
		{"mention in code", "`@alice`", "`@alice`"},
		{"heading", "## A *nice* `title`", "*A nice title*"},
		{"heading with link", "# See [docs](https://x.io)", "*See docs (https://x.io)*"},
		{"list", "- a\n- b\n  - c", "• a\n• b\n    ◦ c"},
		{"ordered", "7. seven\n8. eight", "7. seven\n8. eight"},
		{"tasks", "- [ ] todo\n- [x] done", "☐ todo\n☑ done"},
		{"quote", "> a\n> b", "> a\n> b"},
		{"quote in a list", "- item\n\n  > quoted", "• item\n\n    " + wj + "> quoted"},
		{"table becomes monospace", "| a | b |\n|---|---|\n| 1 | 2 |", "```\na | b\n-----\n1 | 2\n```"},
		{"rule", "a\n\n---\n\nb", "a\n\n──────────\n\nb"},
		{"escaped marks", `\*not bold\* \_no\_ \~no\~`, wj + "*" + wj + "not bold" + wj + "*" + wj + " " + wj + "_" + wj + "no" + wj + "_" + wj + " " + wj + "~" + wj + "no" + wj + "~" + wj},
		{"marks inside words", "snake_case_words 2\\*3\\*4 x\\~y\\~z", "snake_case_words 2*3*4 x~y~z"},
		{"marks between spaces", "2 * 3 = 6, a _ b", "2 * 3 = 6, a _ b"},
		{"literal quote marker", "\\> not a quote", wj + "> not a quote"},
		{"literal bullets", "\\- no\n\n\\* no\n\n\\+ yes", wj + "- no\n\n" + wj + "*" + wj + " no\n\n+ yes"},
		{"literal number", "1\\. not a list", wj + "1. not a list"},
		{"markers mid-line stay", "a > b - c 1. d", "a > b - c 1. d"},
		{"raw html shown as text", "a <b>b</b> c", "a <b>b</b> c"},
		{"hard break", "one  \ntwo\\\nthree", "one\ntwo\nthree"},
		{"blank input", "  \n\n ", ""},
		{"leading and trailing blank lines", "\n\n\nhello\n\n\n", "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Markup(tc.md, markupMentions); got != tc.want {
				t.Errorf("Markup(%q)\ngot  %q\nwant %q", tc.md, got, tc.want)
			}
		})
	}
}

func TestMarkupNilMentions(t *testing.T) {
	t.Parallel()
	if got, want := Markup("hi @alice", nil), "hi @alice"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMarkupInvalidUTF8(t *testing.T) {
	t.Parallel()
	for _, md := range []string{"\xff\xfe", "**a\xc3**", "`\xe2\x82`", "[\xf0](http://x\xff)", "\x00", "\\*\xff\\*"} {
		if got := Markup(md, markupMentions); !utf8.ValidString(got) {
			t.Errorf("Markup(%q) = %q, not valid UTF-8", md, got)
		}
	}
}

func TestMarkupConcurrent(t *testing.T) {
	t.Parallel()
	rendertest.CheckConcurrent(t, func(md string) string { return Markup(md, markupMentions) })
}

// TestMarkupSplitsLongAnswers: a long realistic answer splits at MaxText into parts with
// balanced fences, reopening the code blocks it cuts, and nothing is lost.
func TestMarkupSplitsLongAnswers(t *testing.T) {
	t.Parallel()
	rendertest.CheckLongAnswerSplit(t, func(md string) string { return Markup(md, markupMentions) }, render.Split, MaxText, 13)
}

// FuzzMarkup checks Markup, and render.Split on what it returns, against their promises for
// any input: no panic; valid UTF-8 out for valid in; fences balanced in the whole and in every
// part, no part over the limit (MaxText, and a fuzzed smaller one), nothing lost; no longer than
// needed: no more than a few times the input (tables aside, whose padding has no such bound)
// and no joiner that guards nothing. With every markup character of the input escaped, no
// mark that WhatsApp could pair and no line that it would take for a quote or list item.
func FuzzMarkup(f *testing.F) {
	rendertest.AddGoldenSeeds(f, "markup", 100, MaxText)
	f.Fuzz(func(t *testing.T, md string, n int) {
		out := Markup(md, markupMentions)
		rendertest.CheckRenderedSplit(t, md, out, render.Split, MaxText)
		rendertest.CheckRenderedSplit(t, md, out, render.Split, 100+rendertest.Abs(n)%MaxText)
		if in, got := utf8.RuneCountInString(md), utf8.RuneCountInString(out); !strings.Contains(md, "|") && got > 4*in+16 {
			t.Fatalf("%d runes of markdown gave %d of markup: %q", in, got, rendertest.Clip(out))
		}
		if !strings.ContainsRune(md, '\u2060') {
			if at := strayJoiner(out); at >= 0 {
				t.Fatalf("joiner at %d guards nothing in %q", at, rendertest.Clip(out))
			}
		}
		literal := Markup(rendertest.EscapeMarkdown(md), markupMentions)
		if pair := waPair(literal, false); pair != "" {
			t.Fatalf("escaped text gave %q, which WhatsApp would format, in %q", pair, rendertest.Clip(literal))
		}
		if pair := waPair(literal, true); pair != "" {
			t.Fatalf("escaped text gave %q, which WhatsApp would format if joiners were boundaries, in %q", pair, rendertest.Clip(literal))
		}
		if line := blockLine(literal); line != "" {
			t.Fatalf("escaped text gave the line %q, which WhatsApp would take for a quote or list item", line)
		}
	})
}

func BenchmarkMarkup(b *testing.B) {
	md := rendertest.LongAnswer(50_000)
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		Markup(md, markupMentions)
	}
}
