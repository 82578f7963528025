// This file holds the one walk over goldmark's syntax tree that every platform's markup
// shares. The walk decides structure (this is a heading, that is a list item); a Markup,
// which each platform's package supplies, decides only how each piece is spelled.

package render

import (
	"strconv"
	"strings"
	"sync"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Mentions resolves an @username the model wrote to the platform's mention markup
// ("<@U123>"); ok false leaves the text as it was.
type Mentions func(username string) (markup string, ok bool)

// gfmParser parses GitHub-flavoured markdown, which is what models write. It is built on
// first use (a one-shot run never renders for a platform) and never changed: goldmark parsers
// keep per-call state in a fresh context, so one parser is safe for concurrent use.
var gfmParser = sync.OnceValue(func() parser.Parser {
	return goldmark.New(goldmark.WithExtensions(
		extension.Table, extension.Strikethrough, extension.Linkify, extension.TaskList,
	)).Parser()
})

// Markup spells the markup of one chat platform for Markdown. Inline methods take markup the
// walk has already rendered (inner) or raw text that still needs escaping (text, code, url).
// A Markup is asked only to spell: which piece is a heading, a list item or a table, and
// where mentions are, the walk decides the same way for every platform.
type Markup interface {
	// Escape makes plain text show as itself.
	Escape(text string) string
	// Strong, Emphasis and Strike style inner, which the walk has rendered. The walk never
	// nests a style in itself.
	Strong(inner string) string
	Emphasis(inner string) string
	Strike(inner string) string
	// Code renders an inline code span from its raw text.
	Code(text string) string
	// Link renders a link to url; text is "" when it would only repeat the url.
	Link(url, text string) string
	// Heading renders a heading whose emphasis and code the walk has flattened.
	Heading(level int, inner string) string
	// CodeBlock renders a code block's raw text (a table arrives as one, laid out in
	// columns); lang may be "". The lines it returns should be Verbatim.
	CodeBlock(lang, code string) []Line
	// Quote marks the lines of a block quote. inList says the lines will be indented
	// under a list item, so nothing put at their start will stay there.
	Quote(body []Line, inList bool) []Line
	// ThematicBreak is the line that stands for a horizontal rule (Rule, usually).
	ThematicBreak() string
	// FinishLine gets the last word on every finished line outside code blocks.
	FinishLine(s string) string
}

// Line is one line of a Markup's output. Verbatim lines belong to code blocks: lists and
// quotes leave them alone, because indenting them would change the code, and a fence that
// does not start its line is no fence (to a platform, and to Split).
type Line struct {
	// Text is the line's markup, without its line break.
	Text string
	// Verbatim says the line belongs to a code block and stays exactly as it is.
	Verbatim bool
}

// inlineMode says how much markup inline content may carry where it appears.
type inlineMode uint8

const (
	modeRich  inlineMode = iota // paragraphs: everything
	modeFlat                    // headings: emphasis and code flattened, links and mentions kept
	modePlain                   // link text, image alt text, table cells: raw text, not yet escaped
)

// inlineStyle is a set of open inline styles; opening one that is already open adds no
// markup, since no platform nests a style in itself usefully ("*a *b* c*" breaks in some).
type inlineStyle uint8

const (
	styleStrong inlineStyle = 1 << iota
	styleEmphasis
	styleStrike
)

// mdWalker renders one document. It lives for one call, so concurrent calls share nothing.
type mdWalker struct {
	src      []byte
	d        Markup
	mentions Mentions
	styles   inlineStyle // inline styles open around the node being rendered
	lists    int         // list nesting depth, which picks the bullet
	quotes   int         // quote nesting depth; nested quotes fold into the outer one
}

// Markdown converts standard (GitHub-flavoured) markdown, as the model writes it, to a
// platform's markup spelled by m. Headings, lists (with • ◦ ▪ bullets), quotes, code and
// tables (padded grids in a code block, since no chat platform draws tables) take the same
// shape on every platform; an @username that mentions resolves becomes its mention markup,
// and mentions may be nil. The result has no trailing spaces and no blank lines at either
// end. Markdown is safe for concurrent use when m is.
func Markdown(md string, m Markup, mentions Mentions) string {
	// Goldmark copes with any bytes, but what it hands back must be valid UTF-8 for the
	// output to be; NUL is replaced as CommonMark asks.
	md = strings.ToValidUTF8(md, "\uFFFD")
	md = strings.ReplaceAll(md, "\x00", "\uFFFD")
	src := []byte(md)
	w := &mdWalker{src: src, d: m, mentions: mentions}
	return w.join(w.blocks(gfmParser().Parse(text.NewReader(src)), false))
}

// join turns lines into the final text: no trailing spaces, no blank lines at either end.
func (w *mdWalker) join(lines []Line) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l.Verbatim {
			b.WriteString(l.Text)
		} else {
			b.WriteString(w.d.FinishLine(strings.TrimRightFunc(l.Text, unicode.IsSpace)))
		}
	}
	return strings.Trim(strings.TrimRightFunc(b.String(), unicode.IsSpace), "\n")
}

// blocks renders the block children of parent, one blank line apart unless tight.
func (w *mdWalker) blocks(parent ast.Node, tight bool) []Line {
	var out []Line
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		b := w.block(c)
		if len(b) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, Line{})
		}
		out = append(out, b...)
	}
	return out
}

func (w *mdWalker) block(n ast.Node) []Line {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return textLines(w.inlines(n, modeRich))
	case *ast.Heading:
		inner := strings.TrimSpace(w.inlines(n, modeFlat))
		if inner == "" {
			return nil
		}
		return []Line{{Text: w.d.Heading(n.Level, inner)}}
	case *ast.ThematicBreak:
		return []Line{{Text: w.d.ThematicBreak()}}
	case *ast.CodeBlock:
		return w.codeBlock("", n.Lines())
	case *ast.FencedCodeBlock:
		return w.codeBlock(mdUnescape(n.Language(w.src)), n.Lines())
	case *ast.HTMLBlock:
		raw := string(n.Lines().Value(w.src))
		if n.HasClosure() {
			raw += string(n.ClosureLine.Value(w.src))
		}
		return textLines(w.d.Escape(raw)) // shown as text: dropping it would lose what the model wrote
	case *ast.Blockquote:
		w.quotes++
		body := w.blocks(n, false)
		w.quotes--
		if w.quotes > 0 {
			return body
		}
		return w.d.Quote(body, w.lists > 0)
	case *ast.List:
		return w.list(n)
	case *extast.Table:
		return w.table(n)
	default:
		return w.blocks(n, false)
	}
}

// textLines splits rendered inline markup into lines; whitespace alone is no block.
func textLines(s string) []Line {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	lines := make([]Line, len(parts))
	for i, p := range parts {
		lines[i] = Line{Text: p}
	}
	return lines
}

func (w *mdWalker) codeBlock(lang string, segs *text.Segments) []Line {
	var b strings.Builder
	for i := range segs.Len() {
		seg := segs.At(i)
		b.Write(seg.Value(w.src))
	}
	code := strings.TrimRight(b.String(), "\n")
	if code == "" {
		return nil
	}
	return w.d.CodeBlock(lang, code)
}

func (w *mdWalker) list(l *ast.List) []Line {
	depth := w.lists
	w.lists++
	defer func() { w.lists-- }()
	var out []Line
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := listMarker(l, depth, num, item)
		num++
		if len(out) > 0 && !l.IsTight {
			out = append(out, Line{})
		}
		out = append(out, hangItem(marker, w.blocks(item, l.IsTight))...)
	}
	return out
}

// listMarker is an item's number or bullet; a task item's box stands in for the bullet.
func listMarker(l *ast.List, depth, num int, item ast.Node) string {
	box := ""
	if first := item.FirstChild(); first != nil {
		if cb, ok := first.FirstChild().(*extast.TaskCheckBox); ok {
			box = "☐"
			if cb.IsChecked {
				box = "☑"
			}
		}
	}
	if l.IsOrdered() {
		m := strconv.Itoa(num) + string(l.Marker)
		if box != "" {
			m += " " + box
		}
		return m
	}
	if box != "" {
		return box
	}
	switch depth {
	case 0:
		return "•"
	case 1:
		return "◦"
	default:
		return "▪"
	}
}

// listIndent is how far each list level sits in from its parent.
const listIndent = "    "

// hangItem puts marker before an item's first line and indents the rest of the item under it.
func hangItem(marker string, body []Line) []Line {
	out := make([]Line, 0, len(body)+1)
	if len(body) == 0 || body[0].Verbatim {
		out = append(out, Line{Text: marker})
	} else {
		out = append(out, Line{Text: marker + " " + body[0].Text})
		body = body[1:]
	}
	for _, l := range body {
		if !l.Verbatim && l.Text != "" {
			l.Text = listIndent + l.Text
		}
		out = append(out, l)
	}
	return out
}
