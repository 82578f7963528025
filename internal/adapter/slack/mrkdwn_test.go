package slack

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/render/rendertest"
)

// testMentions knows three people; everyone else stays plain text.
var testMentions = rendertest.Mentions(map[string]string{"alice": "<@U001>", "bob.smith": "<@U002>", "john_doe": "<@U003>"})

// TestMrkdwnGolden renders testdata/mrkdwn/*.md and compares with the .txt beside each;
// -update rewrites them.
func TestMrkdwnGolden(t *testing.T) {
	rendertest.Golden(t, "mrkdwn", ".txt", func(_ *testing.T, md string) string { return Mrkdwn(md, testMentions) })
}

func TestMrkdwn(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"bold before a colon", "**Note:** read this", "*Note:* read this"},
		{"bold before punctuation", "It is **done**. Really (**done**)!", "It is *done*. Really (*done*)!"},
		{"underscores", "__bold__ and _it_", "*bold* and _it_"},
		{"bold italic", "***both***", "*_both_*"},
		{"italic in bold", "**bold *and it* here**", "*bold _and it_ here*"},
		{"bold in bold", "**a **b** c**", "*a b c*"},
		{"bold across a line break", "**one\ntwo**", "*one*\n*two*"},
		{"strike", "~~gone~~", "~gone~"},
		{"link with a pipe in the url", "[docs](https://x.io/a|b)", "<https://x.io/a%7Cb|docs>"},
		{"link with > and space in the url", `[t](<https://x.io/a b\>c>)`, "<https://x.io/a%20b%3Ec|t>"},
		{"link with & in the url", "[t](https://x.io/?a=1&b=2)", "<https://x.io/?a=1&amp;b=2|t>"},
		{"link text is its url", "[https://x.io](https://x.io)", "<https://x.io>"},
		{"link text formatted", "[**bold** `code`](https://x.io)", "<https://x.io|bold code>"},
		{"link text with <", "[a < b](https://x.io)", "<https://x.io|a &lt; b>"},
		{"empty link text", "[](https://x.io)", "<https://x.io>"},
		{"image", "![a cat](https://x.io/cat.png)", "<https://x.io/cat.png|a cat>"},
		{"bare url", "see https://x.io/a_b.", "see <https://x.io/a_b>."},
		{"email", "mail bob@example.com", "mail <mailto:bob@example.com|bob@example.com>"},
		{"mention at sentence end", "ask @alice.", "ask <@U001>."},
		{"mention with a dot", "cc @bob.smith, please", "cc <@U002>, please"},
		{"mention with escaped underscore", `hi @john\_doe!`, "hi <@U003>!"},
		{"unknown mention", "ask @zed.", "ask @zed."},
		{"mention inside a word", "mail alice@alice", "mail alice@alice"},
		{"mention in code", "`@alice`", "`@alice`"},
		{"mention in a url", "https://x.io/@alice", "<https://x.io/@alice>"},
		{"mention in link text", "[@alice](https://x.io)", "<https://x.io|@alice>"},
		{"code with <", "`a<b && c>d`", "`a&lt;b &amp;&amp; c&gt;d`"},
		{"code with a backtick", "``a`b``", "a`b"},
		{"code block with <", "```\n<div> & </div>\n```", "```\n&lt;div&gt; &amp; &lt;/div&gt;\n```"},
		{"code block language dropped", "```go\nx := 1\n```", "```\nx := 1\n```"},
		{"fence inside code", "````\n```\n````", "```\n``\u200b`\n```"},
		{"amp entity", "AT&amp;T and AT&T", "AT&amp;T and AT&amp;T"},
		{"lt entity", "&lt;b&gt;", "&lt;b&gt;"},
		{"other entities", "&copy; &#x1F600; &#65;", "© 😀 A"},
		{"escapes", `\*not bold\* \<x\>`, "\u2060*not bold*\u2060 &lt;x&gt;"},
		{"inline html", "a <b>b</b> c", "a &lt;b&gt;b&lt;/b&gt; c"},
		{"soft break", "one\ntwo", "one\ntwo"},
		{"hard break", "one  \ntwo\\\nthree", "one\ntwo\nthree"},
		{"heading", "## A *nice* `title`", "*A nice title*"},
		{"heading with link", "# See [docs](https://x.io)", "*See <https://x.io|docs>*"},
		{"ordered start", "7. seven\n8. eight", "7. seven\n8. eight"},
		{"tasks", "- [ ] todo\n- [x] done", "☐ todo\n☑ done"},
		{"quote", "> a\n> b", "> a\n> b"},
		{"rule", "a\n\n---\n\nb", "a\n\n──────────\n\nb"},
		{"blank input", "  \n\n ", ""},
		{"leading and trailing blank lines", "\n\n\nhello\n\n\n", "hello"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := Mrkdwn(tc.md, testMentions); got != tc.want {
				t.Errorf("Mrkdwn(%q)\ngot  %q\nwant %q", tc.md, got, tc.want)
			}
		})
	}
}

func TestMrkdwnNilMentions(t *testing.T) {
	if got, want := Mrkdwn("hi @alice", nil), "hi @alice"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestMrkdwnInvalidUTF8(t *testing.T) {
	for _, md := range []string{"\xff\xfe", "**a\xc3**", "`\xe2\x82`", "[\xf0](http://x\xff)", "\x00"} {
		got := Mrkdwn(md, testMentions)
		if !utf8.ValidString(got) {
			t.Errorf("Mrkdwn(%q) = %q, not valid UTF-8", md, got)
		}
	}
}

func TestMrkdwnConcurrent(t *testing.T) {
	rendertest.CheckConcurrent(t, func(md string) string { return Mrkdwn(md, testMentions) })
}

// TestMrkdwnSplitsLongAnswers: a long realistic answer in mrkdwn splits into parts of 8,000
// characters, each with balanced fences, reopening the code blocks cut, and nothing is lost.
func TestMrkdwnSplitsLongAnswers(t *testing.T) {
	text := rendertest.CheckLongAnswerSplit(t, func(md string) string { return Mrkdwn(md, testMentions) }, render.Split, MaxText, 7)
	if n := utf8.RuneCountInString(text); n < 50_000 {
		t.Errorf("long answer has %d runes, want at least 50,000", n)
	}
}

// FuzzMrkdwn checks Mrkdwn, and Split on what it returns, against their promises for any
// input: no panic, valid UTF-8 out for valid in, Slack's angle brackets balanced, fences
// balanced in every part, no part over the limit, nothing lost; and, with every markup
// character of the input escaped, no '*', '_', '~' or '`' that Slack would pair.
func FuzzMrkdwn(f *testing.F) {
	rendertest.AddGoldenSeeds(f, "mrkdwn", 100, 500)
	f.Fuzz(func(t *testing.T, md string, n int) {
		out := Mrkdwn(md, testMentions)
		if err := anglesBalanced(out); err != "" {
			t.Fatalf("%s in %q", err, rendertest.Clip(out))
		}
		rendertest.CheckRenderedSplit(t, md, out, render.Split, 100+rendertest.Abs(n)%5000)
		literal := Mrkdwn(rendertest.EscapeMarkdown(md), testMentions)
		if pair := slackPair(literal); pair != "" {
			t.Fatalf("escaped text gave %q, which Slack would format, in %q", pair, rendertest.Clip(literal))
		}
	})
}

func BenchmarkMrkdwn(b *testing.B) {
	md := rendertest.LongAnswer(50_000)
	b.SetBytes(int64(len(md)))
	b.ReportAllocs()
	for b.Loop() {
		Mrkdwn(md, testMentions)
	}
}

// anglesBalanced says what is wrong with the raw < and > in Slack text: each < must be
// closed by a > before the next <, and no > may stand alone except as the "> " that
// starts a quoted line.
func anglesBalanced(s string) string {
	open := false
	for i, r := range s {
		if r == '>' && !open && (i == 0 || s[i-1] == '\n') && strings.HasPrefix(s[i:], "> ") {
			continue
		}
		switch r {
		case '<':
			if open {
				return "< inside <...>"
			}
			open = true
		case '>':
			if !open {
				return "> without <"
			}
			open = false
		}
	}
	if open {
		return "unclosed <"
	}
	return ""
}
