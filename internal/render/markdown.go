// This file holds the one walk over goldmark's syntax tree that every chat dialect shares.
// The walk decides structure (this is a heading, that is a list item); a dialect
// (mrkdwn.go, later Telegram HTML or Discord) decides only how each piece is spelled.

package render

import (
	"strconv"
	"strings"
	"unicode"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	extast "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Mentions resolves an @username the model wrote to the platform's mention markup
// ("<@U123>" on Slack); ok false leaves the text as it was.
type Mentions func(username string) (markup string, ok bool)

// gfmParser parses GitHub-flavoured markdown, which is what models write. It is built once
// and never changed: goldmark parsers keep per-call state in a fresh context, so one
// parser is safe for concurrent use.
var gfmParser = goldmark.New(goldmark.WithExtensions(
	extension.Table, extension.Strikethrough, extension.Linkify, extension.TaskList,
)).Parser()

// dialect spells the markup of one chat platform. Inline methods take markup the walk
// has already rendered (inner) or raw text that still needs escaping (text, code, url).
type dialect interface {
	// escape makes plain text show as itself.
	escape(text string) string
	strong(inner string) string
	emphasis(inner string) string
	strike(inner string) string
	// code renders an inline code span from its raw text.
	code(text string) string
	// link renders a link to url; text is "" when it would only repeat the url.
	link(url, text string) string
	// heading renders a heading whose emphasis and code the walk has flattened.
	heading(level int, inner string) string
	// codeBlock renders a code block's raw text; lang may be "".
	codeBlock(lang, code string) []outLine
	// quote marks the lines of a block quote. inList says the lines will be indented
	// under a list item, so nothing put at their start will stay there.
	quote(body []outLine, inList bool) []outLine
	// thematicBreak is the line that stands for a horizontal rule.
	thematicBreak() string
	// finishLine gets the last word on every finished line outside code blocks.
	finishLine(s string) string
}

// outLine is one line of output. Verbatim lines belong to code blocks: lists and quotes
// leave them alone, because indenting them would change the code, and a fence that
// does not start its line is no fence (to Slack, and to Split).
type outLine struct {
	text     string
	verbatim bool
}

// inlineMode says how much markup inline content may carry where it appears.
type inlineMode uint8

const (
	modeRich  inlineMode = iota // paragraphs: everything
	modeFlat                    // headings: emphasis and code flattened, links and mentions kept
	modePlain                   // link text, image alt text, table cells: raw text, not yet escaped
)

// inlineStyle is a set of open inline styles; opening one that is already open adds no
// markup, since no dialect nests a style in itself usefully (Slack's "*a *b* c*" breaks).
type inlineStyle uint8

const (
	styleStrong inlineStyle = 1 << iota
	styleEmphasis
	styleStrike
)

// mdWalker renders one document. It lives for one call, so concurrent calls share nothing.
type mdWalker struct {
	src      []byte
	d        dialect
	mentions Mentions
	styles   inlineStyle // inline styles open around the node being rendered
	lists    int         // list nesting depth, which picks the bullet
	quotes   int         // quote nesting depth; nested quotes fold into the outer one
}

// renderMarkdown converts md with dialect d.
func renderMarkdown(md string, d dialect, mentions Mentions) string {
	// Goldmark copes with any bytes, but what it hands back must be valid UTF-8 for the
	// output to be; NUL is replaced as CommonMark asks.
	md = strings.ToValidUTF8(md, "\uFFFD")
	md = strings.ReplaceAll(md, "\x00", "\uFFFD")
	src := []byte(md)
	w := &mdWalker{src: src, d: d, mentions: mentions}
	return w.join(w.blocks(gfmParser.Parse(text.NewReader(src)), false))
}

// join turns lines into the final text: no trailing spaces, no blank lines at either end.
func (w *mdWalker) join(lines []outLine) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		if l.verbatim {
			b.WriteString(l.text)
		} else {
			b.WriteString(w.d.finishLine(strings.TrimRightFunc(l.text, unicode.IsSpace)))
		}
	}
	return strings.Trim(strings.TrimRightFunc(b.String(), unicode.IsSpace), "\n")
}

// blocks renders the block children of parent, one blank line apart unless tight.
func (w *mdWalker) blocks(parent ast.Node, tight bool) []outLine {
	var out []outLine
	for c := parent.FirstChild(); c != nil; c = c.NextSibling() {
		b := w.block(c)
		if len(b) == 0 {
			continue
		}
		if len(out) > 0 && !tight {
			out = append(out, outLine{})
		}
		out = append(out, b...)
	}
	return out
}

func (w *mdWalker) block(n ast.Node) []outLine {
	switch n := n.(type) {
	case *ast.Paragraph, *ast.TextBlock:
		return textLines(w.inlines(n, modeRich))
	case *ast.Heading:
		inner := strings.TrimSpace(w.inlines(n, modeFlat))
		if inner == "" {
			return nil
		}
		return []outLine{{text: w.d.heading(n.Level, inner)}}
	case *ast.ThematicBreak:
		return []outLine{{text: w.d.thematicBreak()}}
	case *ast.CodeBlock:
		return w.codeBlock("", n.Lines())
	case *ast.FencedCodeBlock:
		return w.codeBlock(mdUnescape(n.Language(w.src)), n.Lines())
	case *ast.HTMLBlock:
		raw := string(n.Lines().Value(w.src))
		if n.HasClosure() {
			raw += string(n.ClosureLine.Value(w.src))
		}
		return textLines(w.d.escape(raw)) // shown as text: dropping it would lose what the model wrote
	case *ast.Blockquote:
		w.quotes++
		body := w.blocks(n, false)
		w.quotes--
		if w.quotes > 0 {
			return body
		}
		return w.d.quote(body, w.lists > 0)
	case *ast.List:
		return w.list(n)
	case *extast.Table:
		return w.table(n)
	default:
		return w.blocks(n, false)
	}
}

// textLines splits rendered inline markup into lines; whitespace alone is no block.
func textLines(s string) []outLine {
	if strings.TrimSpace(s) == "" {
		return nil
	}
	parts := strings.Split(strings.TrimRight(s, "\n"), "\n")
	lines := make([]outLine, len(parts))
	for i, p := range parts {
		lines[i] = outLine{text: p}
	}
	return lines
}

func (w *mdWalker) codeBlock(lang string, segs *text.Segments) []outLine {
	var b strings.Builder
	for i := range segs.Len() {
		seg := segs.At(i)
		b.Write(seg.Value(w.src))
	}
	code := strings.TrimRight(b.String(), "\n")
	if code == "" {
		return nil
	}
	return w.d.codeBlock(lang, code)
}

func (w *mdWalker) list(l *ast.List) []outLine {
	depth := w.lists
	w.lists++
	defer func() { w.lists-- }()
	var out []outLine
	num := l.Start
	for item := l.FirstChild(); item != nil; item = item.NextSibling() {
		marker := listMarker(l, depth, num, item)
		num++
		if len(out) > 0 && !l.IsTight {
			out = append(out, outLine{})
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
func hangItem(marker string, body []outLine) []outLine {
	out := make([]outLine, 0, len(body)+1)
	if len(body) == 0 || body[0].verbatim {
		out = append(out, outLine{text: marker})
	} else {
		out = append(out, outLine{text: marker + " " + body[0].text})
		body = body[1:]
	}
	for _, l := range body {
		if !l.verbatim && l.text != "" {
			l.text = listIndent + l.text
		}
		out = append(out, l)
	}
	return out
}
