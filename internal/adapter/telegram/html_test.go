package telegram

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/render/rendertest"
)

// tgMentions knows a person with a Telegram username (shown as @alice, which Telegram links
// itself) and one without (linked by id).
var tgMentions = rendertest.Mentions(map[string]string{"alice": "@alice", "john_doe": `<a href="tg://user?id=42">John Doe</a>`})

// TestHTMLGolden renders testdata/html/*.md, checks that each result is HTML
// Telegram accepts, and compares with the .html beside each; -update rewrites them.
func TestHTMLGolden(t *testing.T) {
	rendertest.Golden(t, "html", ".html", func(t *testing.T, md string) string {
		got := HTML(md, tgMentions)
		if err := checkHTML(got); err != nil {
			t.Errorf("output is not valid Telegram HTML: %v", err)
		}
		return got
	})
}

func TestHTML(t *testing.T) {
	tests := []struct{ name, md, want string }{
		{"bold italic strike", "**b** _i_ ~~s~~", "<b>b</b> <i>i</i> <s>s</s>"},
		{"escaping", "a < b && c > d", "a &lt; b &amp;&amp; c &gt; d"},
		{"code escapes", "`<b>` and `a&b`", "<code>&lt;b&gt;</code> and <code>a&amp;b</code>"},
		{"link", `[the "docs"](https://x.io/?a=1&b=2)`, `<a href="https://x.io/?a=1&amp;b=2">the &quot;docs&quot;</a>`},
		{"bare link", "see https://go.dev now", `see <a href="https://go.dev">https://go.dev</a> now`},
		{"heading", "# Title *here*", "<b>Title here</b>"},
		{"fenced with language", "```go\nif a < b {}\n```", `<pre><code class="language-go">if a &lt; b {}</code></pre>`},
		{"fenced without language", "```\nx\ny\n```", "<pre>x\ny</pre>"},
		{"table", "| a | b |\n|---|---|\n| 1 | <2> |", "<pre>a | b\n-------\n1 | &lt;2&gt;</pre>"},
		{"quote", "> one\n>\n> two", "<blockquote>one\n\ntwo</blockquote>"},
		{"raw html shown as text", "<div>hi</div>", "&lt;div&gt;hi&lt;/div&gt;"},
		{"mention by username", "ask @alice", "ask @alice"},
		{"mention by id", "ask @john_doe.", `ask <a href="tg://user?id=42">John Doe</a>.`},
		{"unknown mention", "ask @nobody", "ask @nobody"},
		{"list", "- one\n- two", "• one\n• two"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := HTML(tt.md, tgMentions)
			if got != tt.want {
				t.Errorf("HTML(%q)\n got %q\nwant %q", tt.md, got, tt.want)
			}
			if err := checkHTML(got); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestPlain(t *testing.T) {
	in := `<b>a &lt; b</b> &amp; <a href="https://x.io/?a&amp;b">link</a> &quot;q&quot;`
	if got, want := Plain(in), `a < b & link "q"`; got != want {
		t.Errorf("Plain = %q, want %q", got, want)
	}
}

func TestSplitHTMLKeepsTagsWhole(t *testing.T) {
	var md strings.Builder
	md.WriteString("**Intro** with a [link](https://example.com/a?x=1&y=2) & more.\n\n")
	md.WriteString("```python\n")
	for i := range 80 {
		fmt.Fprintf(&md, "    print(\"line %d <&>\")\n", i)
	}
	md.WriteString("```\n\n")
	for i := range 40 {
		fmt.Fprintf(&md, "Paragraph %d has **bold words that go on and on** and `code & stuff`.\n\n", i)
	}
	markup := HTML(md.String(), nil)
	for _, limit := range []int{300, 1000, 4096} {
		parts := SplitHTML(markup, limit)
		if err := checkTelegramParts(markup, parts, limit); err != nil {
			t.Fatalf("limit %d: %v", limit, err)
		}
		if limit == 300 {
			continued := 0
			for _, p := range parts {
				if strings.HasPrefix(p, `<pre><code class="language-python">`) {
					continued++
				}
			}
			if continued < 2 {
				t.Errorf("the code block was not reopened in the parts after a cut:\n%s", strings.Join(parts, "\n---\n"))
			}
			for _, p := range parts {
				if strings.Contains(p, "print(") && !strings.Contains(p, "<pre>") && !strings.Contains(p, "<pre><code") {
					t.Errorf("code outside <pre> in part:\n%s", p)
				}
			}
		}
	}
	if got := SplitHTML("<b> </b>\n", 10); got != nil {
		t.Errorf("blank markup gave parts %q", got)
	}
	if got := SplitHTML("short <b>one</b>", 4096); len(got) != 1 || got[0] != "short <b>one</b>" {
		t.Errorf("short markup changed: %q", got)
	}
}

func TestSplitHTMLCountsUTF16(t *testing.T) {
	markup := strings.Repeat("😀", 3000) // 6000 UTF-16 units
	parts := SplitHTML(markup, 4096)
	if err := checkTelegramParts(markup, parts, 4096); err != nil {
		t.Fatal(err)
	}
	if len(parts) != 2 {
		t.Errorf("got %d parts, want 2", len(parts))
	}
}

// FuzzHTML checks HTML, and SplitHTML on what it returns, for any
// input: valid UTF-8 out for valid in, well-formed Telegram HTML, parts within the limit and
// well-formed each, and no visible character lost.
func FuzzHTML(f *testing.F) {
	rendertest.AddGoldenSeeds(f, "html", 100, 700)
	f.Add("**a `b` c** [x](http://y) > q\n\n```go\nx\n```", 20)
	f.Fuzz(func(t *testing.T, md string, n int) {
		out := HTML(md, tgMentions)
		if utf8.ValidString(md) && !utf8.ValidString(out) {
			t.Fatalf("valid input gave invalid UTF-8: %q", rendertest.Clip(out))
		}
		if err := checkHTML(out); err != nil {
			t.Fatalf("%v in %q", err, rendertest.Clip(out))
		}
		limit := 40 + rendertest.Abs(n)%5000
		if err := checkTelegramParts(out, SplitHTML(out, limit), limit); err != nil {
			t.Fatalf("SplitHTML(_, %d): %v\nmarkup %q", limit, err, rendertest.Clip(out))
		}
	})
}

// checkTelegramParts says what is wrong with parts as the result of SplitHTML:
// a part over the limit or not well-formed, or visible text lost, repeated or reordered
// (whitespace aside, which cuts drop).
func checkTelegramParts(markup string, parts []string, limit int) error {
	var all strings.Builder
	for i, p := range parts {
		if n := utf16Len(p); n > limit {
			return fmt.Errorf("part %d has %d UTF-16 units, over %d", i, n, limit)
		}
		if err := checkHTML(p); err != nil {
			return fmt.Errorf("part %d: %v: %q", i, err, rendertest.Clip(p))
		}
		if strings.TrimSpace(Plain(p)) == "" {
			return fmt.Errorf("part %d shows nothing: %q", i, p)
		}
		all.WriteString(Plain(p))
	}
	noSpace := func(s string) string { return strings.Join(strings.Fields(s), "") }
	if got, want := noSpace(all.String()), noSpace(Plain(markup)); got != want {
		return fmt.Errorf("the parts show %q, the whole showed %q", rendertest.Clip(got), rendertest.Clip(want))
	}
	return nil
}

var (
	tgTag    = regexp.MustCompile(`^<(/?)([a-z-]+)((?: [a-z]+="[^"<>]*")*)>`)
	tgEntity = regexp.MustCompile(`^&(?:amp|lt|gt|quot|#[0-9]{1,7});`)
)

// checkTelegramHTML checks that s is HTML as Telegram accepts it: only its tags, with only the
// attributes they take, closed in order; only the entities it decodes; no stray < or >.
func checkHTML(s string) error {
	var open []string
	for i := 0; i < len(s); {
		switch s[i] {
		case '<':
			m := tgTag.FindStringSubmatch(s[i:])
			if m == nil {
				return fmt.Errorf("malformed tag at byte %d: %q", i, rendertest.Clip(s[i:]))
			}
			closing, name, attrs := m[1] == "/", m[2], m[3]
			if closing {
				if len(open) == 0 || open[len(open)-1] != name {
					return fmt.Errorf("</%s> at byte %d closes nothing open (open: %v)", name, i, open)
				}
				open = open[:len(open)-1]
			} else {
				if err := checkTelegramTag(name, attrs); err != nil {
					return fmt.Errorf("at byte %d: %v", i, err)
				}
				open = append(open, name)
			}
			i += len(m[0])
		case '&':
			m := tgEntity.FindString(s[i:])
			if m == "" {
				return fmt.Errorf("bare & at byte %d: %q", i, rendertest.Clip(s[i:]))
			}
			i += len(m)
		case '>':
			return fmt.Errorf("bare > at byte %d", i)
		default:
			i++
		}
	}
	if len(open) > 0 {
		return fmt.Errorf("unclosed tags %v", open)
	}
	return nil
}

func checkTelegramTag(name, attrs string) error {
	switch name {
	case "b", "i", "s", "u", "pre", "blockquote", "tg-spoiler":
		if attrs != "" {
			return fmt.Errorf("<%s> takes no attributes, got %q", name, attrs)
		}
	case "a":
		if !regexp.MustCompile(`^ href="[^"]*"$`).MatchString(attrs) {
			return fmt.Errorf("<a> needs exactly href, got %q", attrs)
		}
	case "code":
		if attrs != "" && !strings.HasPrefix(attrs, ` class="language-`) {
			return fmt.Errorf("<code> takes only class=\"language-…\", got %q", attrs)
		}
	default:
		return fmt.Errorf("Telegram does not support <%s>", name)
	}
	return nil
}
