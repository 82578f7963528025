package web

import (
	"regexp"
	"strings"
	"testing"
)

// TestMarkdownRendersGFM: what models write (headings, lists, tables, quotes, strike-through,
// task lists, bare links, fenced code with its language) renders as such, with a chat's
// line breaks.
func TestMarkdownRendersGFM(t *testing.T) {
	t.Parallel()
	md := newMarkdown()
	for _, c := range []struct{ src, want string }{
		{"# Title\n\ntext", "<h1>Title</h1>\n<p>text</p>"},
		{"- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"},
		{"3. three\n4. four", "<ol start=\"3\">\n<li>three</li>\n<li>four</li>\n</ol>"},
		{"| a | b |\n|:--|--:|\n| 1 | 2 |", "<table>\n<thead>\n<tr>\n<th align=\"left\">a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td align=\"left\">1</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>"},
		{"> quoted", "<blockquote>\n<p>quoted</p>\n</blockquote>"},
		{"~~old~~ new", "<p><del>old</del> new</p>"},
		{"- [x] done\n- [ ] todo", "<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n</ul>"},
		{"see https://example.com/a?b=1 now", "<p>see <a href=\"https://example.com/a?b=1\" rel=\"nofollow noreferrer noopener\" target=\"_blank\">https://example.com/a?b=1</a> now</p>"},
		{"```go\nfmt.Println(\"<hi>\")\n```", "<pre><code class=\"language-go\">fmt.Println(&#34;&lt;hi&gt;&#34;)\n</code></pre>"},
		{"line one\nline two", "<p>line one<br>\nline two</p>"},
		{"**bold** and _it_ and `code`", "<p><strong>bold</strong> and <em>it</em> and <code>code</code></p>"},
		{"a\x000\x00b", "<p>a\uFFFD0\uFFFDb</p>"},
		{"use a <br> and <div>x</div>", "<p>use a &lt;br&gt; and &lt;div&gt;x&lt;/div&gt;</p>"},
	} {
		if got := md.html(c.src); got != c.want {
			t.Errorf("html(%q) =\n%q, want\n%q", c.src, got, c.want)
		}
	}
}

// allowedTag is every element the sanitizer lets through.
var allowedTag = regexp.MustCompile(`^(p|br|hr|h[1-6]|strong|em|del|code|pre|blockquote|ul|ol|li|table|thead|tbody|tr|th|td|input|a)$`)

// TestMarkdownNeverRunsScript: text that tries to run script or load something (HTML tags,
// event handlers, javascript: and data: links and images, attribute break-outs) shows as
// text or harmless links: the HTML holds only the sanitizer's elements, no handler, no
// script address, and nothing to load.
func TestMarkdownNeverRunsScript(t *testing.T) {
	t.Parallel()
	md := newMarkdown()
	attacks := []string{
		"<script>alert(1)</script>",
		"<img src=x onerror=alert(1)>",
		"<0> <img src=x onerror=alert(1)> &lt;1&gt;",
		"<div onmouseover=\"alert(1)\">hover</div>",
		"[click](javascript:alert(1))",
		"[click](JaVaScRiPt:alert(1))",
		"[click](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)",
		"![x](javascript:alert(1))",
		"![pixel](https://tracker.example/p.gif)",
		"[x](https://a.example/\" onmouseover=\"alert(1))",
		"<a href=\"javascript:alert(1)\">x</a>",
		"<svg><script>alert(1)</script></svg>",
		"<iframe src=\"https://evil.example\"></iframe>",
		"<style>body{display:none}</style>",
		"```\n</code></pre><script>alert(1)</script>\n```",
		"`</code><script>alert(1)</script>`",
		"<https://a.example/\"onmouseover=alert(1)>",
		"[a](<javascript:alert(1)>)",
		"| a |\n|---|\n| <script>alert(1)</script> |",
		"<!-- --><script>alert(1)</script>",
	}
	tag := regexp.MustCompile(`<\s*/?\s*([a-zA-Z0-9]+)([^>]*)>`)
	for _, src := range attacks {
		out := md.html(src)
		for _, m := range tag.FindAllStringSubmatch(out, -1) {
			if !allowedTag.MatchString(strings.ToLower(m[1])) {
				t.Errorf("html(%q) makes a %s element: %s", src, m[1], out)
			}
			attrs := strings.ToLower(m[2])
			if strings.Contains(attrs, " on") || strings.Contains(attrs, "javascript:") || strings.Contains(attrs, "data:") || strings.Contains(attrs, "src=") || strings.Contains(attrs, "style=") {
				t.Errorf("html(%q) sets %q on %s: %s", src, m[2], m[1], out)
			}
		}
	}
}

// TestMarkdownLongTextIsPlain: a text past maxMarkdown shows as escaped text, whatever it
// holds.
func TestMarkdownLongTextIsPlain(t *testing.T) {
	t.Parallel()
	src := strings.Repeat("<b>[", maxMarkdown/4+1)
	out := newMarkdown().html(src)
	if strings.Contains(out, "<b>") || !strings.HasPrefix(out, "<p>&lt;b&gt;[") {
		t.Errorf("a long text renders as %.80q…", out)
	}
}

// TestMarkdownDeepNestingIsPlain: a line that opens more quotes and lists than maxNesting
// (which goldmark takes seconds to render when long) shows as text; shallower ones render.
func TestMarkdownDeepNestingIsPlain(t *testing.T) {
	t.Parallel()
	md := newMarkdown()
	for _, src := range []string{strings.Repeat("> ", 40) + "x", "ok\n" + strings.Repeat("- ", 40) + "x", strings.Repeat("1. ", 40) + "x", strings.Repeat("> - ", 20) + "x"} {
		if out := md.html(src); strings.Contains(out, "<li>") || strings.Contains(out, "<blockquote>") {
			t.Errorf("html(%.20q…) nests: %.100q", src, out)
		}
	}
	if out := md.html("> - 1. quoted list"); !strings.Contains(out, "<blockquote>") || !strings.Contains(out, "<li>") {
		t.Errorf("a shallow quoted list renders as %q", out)
	}
}
