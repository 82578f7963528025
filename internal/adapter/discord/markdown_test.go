package discord

import (
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/render/rendertest"
)

// discordMentions knows three people, spelled as Discord mentions; everyone else stays plain
// text.
var discordMentions = rendertest.Mentions(map[string]string{"alice": "<@111>", "bob.smith": "<@222>", "john_doe": "<@333>"})

// TestMarkdownGolden renders testdata/markdown/*.md (the same inputs as the other platforms'
// goldens) and compares with the .txt beside each; -update rewrites them.
func TestMarkdownGolden(t *testing.T) {
	rendertest.Golden(t, "markdown", ".txt", func(_ *testing.T, md string) string { return Markdown(md, discordMentions) })
}

func TestMarkdown(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"bold and italic pass through", "**Note:** read *this*", "**Note:** read *this*"},
		{"underscores become stars", "__bold__ and _it_", "**bold** and *it*"},
		{"bold italic", "***both***", "***both***"},
		{"strike", "~~gone~~", "~~gone~~"},
		{"markup characters escaped", `2 * 3 = 6, snake_case, a|b, ~x, <y>`, `2 \* 3 = 6, snake\_case, a\|b, \~x, \<y>`},
		{"escaped markdown stays text", `\*not bold\* \# not a heading`, `\*not bold\* # not a heading`},
		{"line-start markers escaped", "\\# no\n\n\\- no\n\n1\\. no", "\\# no\n\n\\- no\n\n1\\. no"},
		{"markers without a space stay", "#general -1 6.1k in >x", "#general -1 6.1k in >x"},
		{"masked link without embed", "[docs](https://x.io/a_b)", "[docs](<https://x.io/a_b>)"},
		{"bare url kept whole", "see https://x.io/a_b.", "see <https://x.io/a_b>."},
		{"link with parens and space", `[t](<https://x.io/a b(c)>)`, "[t](<https://x.io/a%20b%28c%29>)"},
		{"mailto is not masked", "mail bob@example.com", "mail bob@example.com"},
		{"link text escaped", "[a_b *c*](https://x.io)", `[a\_b c](<https://x.io>)`},
		{"mention", "ask @alice.", "ask <@111>."},
		{"mention with escaped underscore", `hi @john\_doe!`, "hi <@333>!"},
		{"unknown mention", "ask @zed_x.", `ask @zed\_x.`},
		{"mention in code", "`@alice`", "`@alice`"},
		{"code with a backtick", "``a`b``", "`` a`b ``"},
		{"code with two backticks", "```a``b```", "a\\`\\`b"},
		{"code block keeps its language", "```go\nx := 1 // a_b *c*\n```", "```go\nx := 1 // a_b *c*\n```"},
		{"odd language dropped", "```{.python}\nx\n```", "```\nx\n```"},
		{"fence inside code", "````\n```\n````", "```\n``\u200b`\n```"},
		{"headings", "# One\n\n## Two\n\n#### Four", "# One\n\n## Two\n\n### Four"},
		{"quote", "> a\n> b", "> a\n> b"},
		{"list", "- a\n- b\n  - c", "• a\n• b\n    ◦ c"},
		{"table becomes code", "| a | b |\n|---|---|\n| 1 | 2 |", "```\na | b\n-----\n1 | 2\n```"},
		{"rule", "a\n\n---\n\nb", "a\n\n──────────\n\nb"},
		{"blank input", "  \n\n ", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Markdown(tc.md, discordMentions); got != tc.want {
				t.Errorf("Markdown(%q)\ngot  %q\nwant %q", tc.md, got, tc.want)
			}
		})
	}
}

// TestMarkdownSplitsLongAnswers: a long realistic answer splits into parts Discord takes,
// each with balanced fences, and nothing is lost.
func TestMarkdownSplitsLongAnswers(t *testing.T) {
	md := rendertest.LongAnswer(30_000)
	rendertest.CheckRenderedSplit(t, md, Markdown(md, discordMentions), render.Split, MaxText)
}

// FuzzMarkdown checks Markdown, and render.Split on what it returns, for any input: no panic, valid
// UTF-8 out for valid in, fences balanced in the whole and in every part, no part over the
// limit, nothing lost.
//
// With every markup character of the input escaped, every '*', '_', '~' and '`' of the output
// must stand escaped, since Discord would pair any other.
func FuzzMarkdown(f *testing.F) {
	rendertest.AddGoldenSeeds(f, "markdown", 100, 2000)
	f.Fuzz(func(t *testing.T, md string, n int) {
		rendertest.CheckRenderedSplit(t, md, Markdown(md, discordMentions), render.Split, 100+rendertest.Abs(n)%MaxText)
		literal := Markdown(rendertest.EscapeMarkdown(md), discordMentions)
		if mark := discordBareMark(literal); mark >= 0 {
			t.Fatalf("escaped text gave a bare %q at %d in %q", literal[mark], mark, rendertest.Clip(literal))
		}
	})
}

// discordBareMark finds a '*', '_', '~' or '`' in Discord text outside code blocks and <…>
// (links, mentions) that no backslash escapes, and returns its index, or -1.
func discordBareMark(text string) int {
	for at, line := range rendertest.TextLines(text) {
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\':
				i++ // the escaped character
			case c == '<':
				for i < len(line) && line[i] != '>' {
					i++
				}
			case strings.IndexByte("*_~`", c) >= 0:
				return at + i
			}
		}
	}
	return -1
}

func TestDiscordBareMark(t *testing.T) {
	for text, want := range map[string]int{
		`\*a\* \_b\_`:                -1,
		"x *a*":                      2,
		"[t](<https://x.io/a_b>)":    -1,
		"```\n*code*\n```\n\\~ok\\~": -1,
		"a\n_b":                      2,
	} {
		if got := discordBareMark(text); got != want {
			t.Errorf("discordBareMark(%q) = %d, want %d", text, got, want)
		}
	}
}
