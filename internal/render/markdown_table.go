package render

import (
	"strings"

	extast "github.com/yuin/goldmark/extension/ast"
)

// table renders a GFM table as a padded grid in a code block: no chat platform draws
// tables, and monospace is the only way columns stay lined up.
func (w *mdWalker) table(t *extast.Table) []Line {
	var rows [][]string
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for c := r.FirstChild(); c != nil; c = c.NextSibling() {
			cells = append(cells, strings.TrimSpace(w.inlines(c, modePlain)))
		}
		rows = append(rows, cells)
	}
	return w.d.CodeBlock("", tableGrid(rows, t.Alignments))
}

// tableGrid lays rows out in columns padded to equal width (in monospace columns, see
// textWidth); the first row is the header and is underlined with dashes.
func tableGrid(rows [][]string, aligns []extast.Alignment) string {
	var widths []int
	for _, r := range rows {
		for i, c := range r {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textWidth(c))
		}
	}
	var b strings.Builder
	for ri, r := range rows {
		if ri == 1 {
			total := 3 * (len(widths) - 1)
			for _, wd := range widths {
				total += wd
			}
			b.WriteString(strings.Repeat("-", total) + "\n")
		}
		var l strings.Builder
		for i, wd := range widths {
			if i > 0 {
				l.WriteString(" | ")
			}
			c := ""
			if i < len(r) {
				c = r[i]
			}
			align := extast.AlignNone
			if i < len(aligns) {
				align = aligns[i]
			}
			l.WriteString(padCell(c, wd, align))
		}
		b.WriteString(strings.TrimRight(l.String(), " ") + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}

func padCell(s string, width int, align extast.Alignment) string {
	gap := width - textWidth(s)
	switch align {
	case extast.AlignRight:
		return strings.Repeat(" ", gap) + s
	case extast.AlignCenter:
		return strings.Repeat(" ", gap/2) + s + strings.Repeat(" ", gap-gap/2)
	default:
		return s + strings.Repeat(" ", gap)
	}
}
