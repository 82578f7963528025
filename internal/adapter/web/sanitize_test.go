package web

import (
	"bytes"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/microcosm-cc/bluemonday"
	"golang.org/x/net/html"
)

// bluemondayPolicy is the policy the web chat had as a bluemonday.Policy, which sanitize now
// spells out; the tests hold sanitize to its output.
func bluemondayPolicy() *bluemonday.Policy {
	p := bluemonday.NewPolicy()
	p.AllowElements("p", "br", "hr", "h1", "h2", "h3", "h4", "h5", "h6", "strong", "em", "del",
		"code", "pre", "blockquote", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td")
	p.AllowAttrs("start").Matching(bluemonday.Integer).OnElements("ol")
	p.AllowAttrs("align").Matching(regexp.MustCompile(`^(left|center|right)$`)).OnElements("th", "td")
	p.AllowAttrs("class").Matching(regexp.MustCompile(`^language-[\w+#.-]{1,40}$`)).OnElements("code")
	p.AllowAttrs("type").Matching(regexp.MustCompile(`^checkbox$`)).OnElements("input")
	p.AllowAttrs("checked", "disabled").Matching(regexp.MustCompile(`^$|^checked$|^disabled$`)).OnElements("input")
	p.AllowAttrs("href").OnElements("a")
	p.AllowURLSchemes("http", "https", "mailto")
	p.RequireParseableURLs(true)
	p.RequireNoFollowOnLinks(true)
	p.RequireNoReferrerOnLinks(true)
	p.AddTargetBlankToFullyQualifiedLinks(true)
	return p
}

// sanitizeSeeds are texts people and models write, and texts written to get something past
// the sanitizer.
var sanitizeSeeds = []string{
	"# Title\n\ntext", "- one\n- two", "3. three\n4. four", "| a | b |\n|:--|--:|\n| 1 | 2 |",
	"> quoted", "~~old~~ new", "- [x] done\n- [ ] todo", "see https://example.com/a?b=1&c=%20 now",
	"www.example.com/x and mailto:ada@example.com", "[mail](mailto:ada@example.com) [rel](/relative) [frag](#x)",
	"```go\nfmt.Println(\"<hi>\")\n```", "```c++ x\ncode\n```", "line one\nline two", "**bold** and _it_ and `code`",
	"&copy; &amp;amp; &#60;script&#62; &lt;b&gt; 'quotes' \"double\"", "[t](https://a.example \"title\")",
	"<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "<div onmouseover=\"alert(1)\">hover</div>",
	"[click](javascript:alert(1))", "[click](JaVaScRiPt:alert(1))", "![x](javascript:alert(1))",
	"![pixel](https://tracker.example/p.gif)", "[x](https://a.example/\" onmouseover=\"alert(1))",
	"<a href=\"javascript:alert(1)\">x</a>", "<svg><script>alert(1)</script></svg>",
	"<iframe src=\"https://evil.example\"></iframe>", "<style>body{display:none}</style>",
	"```\n</code></pre><script>alert(1)</script>\n```", "`</code><script>alert(1)</script>`",
	"<https://a.example/\"onmouseover=alert(1)>", "[a](<javascript:alert(1)>)", "[a](<https://a.example/x y>)",
	"| a |\n|---|\n| <script>alert(1)</script> |", "<!-- --><script>alert(1)</script>", "[x](HTTPS://A.EXAMPLE/%7e)",
	"[x](http://[::1]:80/) [y](http://a b/) [z](https://a.example/\u00e9)", "10. ten\n\n    indented code",
}

// TestSanitizeMatchesBluemonday: for what goldmark makes of every seed, sanitize gives what the
// bluemonday policy gave.
func TestSanitizeMatchesBluemonday(t *testing.T) {
	t.Parallel()
	md, policy := newConverter(), bluemondayPolicy()
	for _, src := range sanitizeSeeds {
		var b bytes.Buffer
		if err := md.Convert([]byte(src), &b); err != nil {
			t.Fatal(err)
		}
		if got, want := sanitize(b.String()), policy.Sanitize(b.String()); got != want {
			t.Errorf("for %q goldmark made\n%s\nsanitize gives\n%s\nbluemonday gave\n%s", src, b.String(), got, want)
		}
	}
}

// TestSanitizeMatchesBluemondayOnRawHTML: given HTML that goldmark never makes (tags of any
// kind, skipped contents, broken markup), sanitize still does what bluemonday did.
func TestSanitizeMatchesBluemondayOnRawHTML(t *testing.T) {
	t.Parallel()
	policy := bluemondayPolicy()
	for _, src := range []string{
		`<p onclick="x">a<script>b</script>c<style>d</style>e</p>`,
		`<iframe><p>inside</p></iframe>after<object><object>x</object>y</object>z`,
		`<a>no href</a><a href="/rel">rel</a><a href="https://a.example/" title="t">ok</a><a href="mailto:x@y">m</a>`,
		`<input type="checkbox" checked disabled><input type="text"><input/><br/><hr/>`,
		`<ol start="3" reversed><li>x</li></ol><ol start="-1"></ol><td align="middle">c</td>`,
		`<code class="language-go extra">x</code><code class="language-">y</code><CODE CLASS="language-Go">z</CODE>`,
		`<a href=" https://a.example/ x">sp</a><a href="https://a.example/%zz">bad</a><a href="javascript:x">js</a>`,
		`</p></a><unknown>t</unknown><title>gone</title><!doctype html><!-- c -->`,
		`<a href="https://a.example/"><a href="">inner</a>outer</a>`,
		`text & more <b>bold</b> &nbsp; &#x27;`,
	} {
		if got, want := sanitize(src), policy.Sanitize(src); got != want {
			t.Errorf("sanitize(%q) =\n%s\nbluemonday gave\n%s", src, got, want)
		}
	}
}

// FuzzSanitizeMatchesBluemonday: whatever text is written, what the web chat sends the page is
// what the bluemonday policy would have sent.
func FuzzSanitizeMatchesBluemonday(f *testing.F) {
	for _, s := range sanitizeSeeds {
		f.Add(s)
	}
	md, policy := newConverter(), bluemondayPolicy()
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 || tooDeep(src) {
			return // markdown() shows these as plain text without converting them
		}
		var b bytes.Buffer
		if err := md.Convert([]byte(strings.ToValidUTF8(src, "\uFFFD")), &b); err != nil {
			return
		}
		if got, want := sanitize(b.String()), policy.Sanitize(b.String()); got != want {
			t.Errorf("for %q goldmark made\n%s\nsanitize gives\n%s\nbluemonday gave\n%s", src, b.String(), got, want)
		}
		if got, want := sanitize(src), policy.Sanitize(src); got != want {
			t.Errorf("sanitize(%q) =\n%s\nbluemonday gave\n%s", src, got, want)
		}
	})
}

// FuzzSanitizeLeavesOnlyTheAllowList checks what sanitize gives on its own terms, not
// bluemonday's: parsed as a browser parses it, the result has only allowed elements, only
// their allowed attributes, and links only to http, https and mailto addresses.
func FuzzSanitizeLeavesOnlyTheAllowList(f *testing.F) {
	for _, s := range sanitizeSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		if len(src) > 4096 {
			return
		}
		out := sanitize(src)
		doc, err := html.Parse(strings.NewReader(out))
		if err != nil {
			t.Fatalf("the output does not parse: %v\n%s", err, out)
		}
		for n := range doc.Descendants() {
			if n.Type != html.ElementNode {
				continue
			}
			switch n.Data {
			case "html", "head", "body", "tbody":
				continue // the parser adds these around any fragment
			}
			allowed, ok := allowedAttrs(n.Data)
			if !ok {
				t.Fatalf("sanitize(%q) left a %s element:\n%s", src, n.Data, out)
			}
			for _, a := range n.Attr {
				switch {
				case n.Data == "a" && (a.Key == "rel" || a.Key == "target"):
				case allowed[a.Key] == nil:
					t.Fatalf("sanitize(%q) left %s=%q on %s:\n%s", src, a.Key, a.Val, n.Data, out)
				case a.Key == "href":
					if u, err := url.Parse(a.Val); err != nil || (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "mailto") {
						t.Fatalf("sanitize(%q) left a link to %q:\n%s", src, a.Val, out)
					}
				case !allowed[a.Key](a.Val):
					t.Fatalf("sanitize(%q) left %s=%q on %s:\n%s", src, a.Key, a.Val, n.Data, out)
				}
			}
		}
	})
}
