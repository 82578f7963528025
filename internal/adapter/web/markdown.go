package web

import (
	"bytes"
	"html"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	ghtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/util"
)

// Past these, a text shows as plain text, so that no message makes the chat slow to load:
// goldmark takes time that grows with the square of a text's length for some inputs (a long
// run of unclosed links: half a second at 64 KB) and of its nesting (blocks in blocks).
const (
	// maxMarkdown is the longest text rendered as markdown (a longer one is a pasted log,
	// most likely).
	maxMarkdown = 64 << 10
	// maxNesting is how many quotes and lists a line may open.
	maxNesting = 16
)

// markdown turns what people and mom write into the HTML the page shows: GitHub-flavoured
// markdown (headings, lists, tables, quotes, task lists, strike-through, bare links, code
// blocks with their language), with hard line breaks as in a chat. The text is never
// trusted: HTML written in it shows as text, images show as links (the page loads nothing
// from elsewhere), and the result goes through an allow-list sanitizer (sanitize) before it
// leaves the server. The converter is built on first use, so a web chat nobody has opened
// yet holds none; it is safe for concurrent use.
type markdown struct {
	md func() goldmark.Markdown
}

func newMarkdown() *markdown {
	return &markdown{md: sync.OnceValue(newConverter)}
}

func newConverter() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(extension.GFM),
		goldmark.WithRendererOptions(
			ghtml.WithHardWraps(),
			renderer.WithNodeRenderers(util.Prioritized(plainHTML{}, 100)),
		),
		goldmark.WithRendererOptions(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
	)
}

// html renders src for the page.
func (m *markdown) html(src string) string {
	if src == "" {
		return ""
	}
	src = strings.ToValidUTF8(src, "\uFFFD")
	if len(src) > maxMarkdown || tooDeep(src) {
		return "<p>" + strings.ReplaceAll(html.EscapeString(src), "\n", "<br>") + "</p>"
	}
	// A NUL shows as U+FFFD, as browsers show one.
	src = strings.ReplaceAll(src, "\x00", "\uFFFD")
	var b bytes.Buffer
	if err := m.md().Convert([]byte(src), &b); err != nil {
		return "<p>" + html.EscapeString(src) + "</p>"
	}
	// Without the newline after the last block, a one-paragraph message's text is the text.
	return strings.TrimSpace(sanitize(b.String()))
}

// plainHTML renders what goldmark would drop as "raw HTML omitted" as the text it is, and
// images as links to them.
type plainHTML struct{}

func (plainHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, renderRawHTML)
	reg.Register(ast.KindHTMLBlock, renderHTMLBlock)
	reg.Register(ast.KindImage, renderImage)
}

func renderRawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		n := node.(*ast.RawHTML)
		for i := range n.Segments.Len() {
			seg := n.Segments.At(i)
			_, _ = w.Write(util.EscapeHTML(seg.Value(source)))
		}
	}
	return ast.WalkSkipChildren, nil
}

func renderHTMLBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.HTMLBlock)
	if !entering {
		return ast.WalkContinue, nil
	}
	var lines [][]byte
	for i := range n.Lines().Len() {
		seg := n.Lines().At(i)
		lines = append(lines, seg.Value(source))
	}
	if n.HasClosure() {
		lines = append(lines, n.ClosureLine.Value(source))
	}
	_, _ = w.WriteString("<p>")
	for i, l := range lines {
		if i > 0 {
			_, _ = w.WriteString("<br>\n")
		}
		_, _ = w.Write(util.EscapeHTML(bytes.TrimRight(l, "\r\n")))
	}
	_, _ = w.WriteString("</p>\n")
	return ast.WalkSkipChildren, nil
}

func renderImage(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.Image)
	dest := util.URLEscape(n.Destination, true)
	label := string(n.Text(source)) //nolint:staticcheck // the alt text, as goldmark's own renderer takes it
	if label == "" {
		label = string(dest)
	}
	_, _ = w.WriteString(`<a href="`)
	if !ghtml.IsDangerousURL(dest) {
		_, _ = w.Write(util.EscapeHTML(dest))
	}
	_, _ = w.WriteString(`">🖼 `)
	_, _ = w.Write(util.EscapeHTML([]byte(label)))
	_, _ = w.WriteString("</a>")
	return ast.WalkSkipChildren, nil
}

// tooDeep reports whether a line of src opens more than maxNesting quotes and list items.
func tooDeep(src string) bool {
	for line := range strings.Lines(src) {
		depth := 0
		for i := 0; i < len(line); {
			c := line[i]
			switch {
			case c == ' ' || c == '\t':
				i++
				continue
			case c == '>':
				i++
			case (c == '-' || c == '*' || c == '+') && i+1 < len(line) && (line[i+1] == ' ' || line[i+1] == '\t'):
				i += 2
			case c >= '0' && c <= '9':
				j := i
				for j < len(line) && line[j] >= '0' && line[j] <= '9' {
					j++
				}
				if j+1 >= len(line) || (line[j] != '.' && line[j] != ')') || (line[j+1] != ' ' && line[j+1] != '\t') {
					depth = -1
				}
				i = j + 2
			default:
				depth = -1
			}
			if depth < 0 {
				break
			}
			if depth++; depth > maxNesting {
				return true
			}
		}
	}
	return false
}
