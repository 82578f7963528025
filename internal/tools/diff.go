package tools

import (
	"fmt"
	"strconv"
	"strings"
)

// maxDiffEdits bounds the work of the line diff. Myers' algorithm needs time and memory growing
// with the square of the number of edited lines; an edit that changes more than this many lines
// is shown as the whole changed block removed and re-added, which is still a correct diff.
const maxDiffEdits = 500

// diffOp is one line of a diff: kind is '=' (in both), '-' (only in a) or '+' (only in b).
// a and b are the line's index in each text; for a line missing from one side, the index there
// is where it would go.
type diffOp struct {
	kind byte
	a, b int
}

// numberedDiff renders the change from a to b as pi's edit tool does: changed lines as
// "-NN text" (old line number) and "+NN text" (new line number), with up to contextLines
// unchanged lines " NN text" around each change and "..." where unchanged lines are skipped.
// firstChanged is the new-file line number of the first change, 0 when nothing changed.
func numberedDiff(a, b string, contextLines int) (diff string, firstChanged int) {
	al, bl := splitLines(a), splitLines(b)
	ops := diffLines(al, bl)
	width := len(strconv.Itoa(max(len(al), len(bl))))
	skipped := " " + strings.Repeat(" ", width) + " ..."
	var out []string
	context := func(op diffOp) {
		out = append(out, fmt.Sprintf(" %*d %s", width, op.a+1, al[op.a]))
	}
	for i := 0; i < len(ops); {
		j := i
		for j < len(ops) && (ops[j].kind == '=') == (ops[i].kind == '=') {
			j++
		}
		run := ops[i:j]
		if run[0].kind != '=' {
			if firstChanged == 0 {
				firstChanged = run[0].b + 1
			}
			for _, op := range run {
				if op.kind == '-' {
					out = append(out, fmt.Sprintf("-%*d %s", width, op.a+1, al[op.a]))
				} else {
					out = append(out, fmt.Sprintf("+%*d %s", width, op.b+1, bl[op.b]))
				}
			}
			i = j
			continue
		}
		before, after := i > 0, j < len(ops)
		n := len(run)
		switch {
		case !before && !after:
		case !before:
			if n > contextLines {
				out = append(out, skipped)
				run = run[n-contextLines:]
			}
			for _, op := range run {
				context(op)
			}
		case !after:
			if n > contextLines {
				run = run[:contextLines]
			}
			for _, op := range run {
				context(op)
			}
			if n > contextLines {
				out = append(out, skipped)
			}
		case n > 2*contextLines:
			for _, op := range run[:contextLines] {
				context(op)
			}
			out = append(out, skipped)
			for _, op := range run[n-contextLines:] {
				context(op)
			}
		default:
			for _, op := range run {
				context(op)
			}
		}
		i = j
	}
	return strings.Join(out, "\n"), firstChanged
}

// splitLines splits s into lines; a final newline ends the last line, it does not add one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// diffLines returns a shortest line diff of a and b. The common head and tail are matched
// directly, so the expensive part only sees the region an edit touched.
func diffLines(a, b []string) []diffOp {
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ops := make([]diffOp, 0, max(len(a), len(b))+1)
	for i := range pre {
		ops = append(ops, diffOp{'=', i, i})
	}
	for _, op := range myers(a[pre:len(a)-suf], b[pre:len(b)-suf]) {
		op.a += pre
		op.b += pre
		ops = append(ops, op)
	}
	for k := suf; k > 0; k-- {
		ops = append(ops, diffOp{'=', len(a) - k, len(b) - k})
	}
	return ops
}

// myers is Myers' O(ND) shortest-edit-script algorithm over lines, with deletions placed before
// insertions in each change. Beyond maxDiffEdits edits it gives up on minimality.
func myers(a, b []string) []diffOp {
	n, m := len(a), len(b)
	limit := min(n+m, maxDiffEdits)
	off := limit + 1
	v := make([]int, 2*limit+3)
	var trace [][]int // trace[d] holds v[-d-1 .. d+1] as it was before step d
	for d := 0; d <= limit; d++ {
		trace = append(trace, append([]int(nil), v[off-d-1:off+d+2]...))
		for k := -d; k <= d; k += 2 {
			var x int
			if k == -d || k != d && v[off+k-1] < v[off+k+1] {
				x = v[off+k+1]
			} else {
				x = v[off+k-1] + 1
			}
			y := x - k
			for x < n && y < m && a[x] == b[y] {
				x, y = x+1, y+1
			}
			v[off+k] = x
			if x >= n && y >= m {
				return backtrack(trace, n, m)
			}
		}
	}
	ops := make([]diffOp, 0, n+m)
	for i := range n {
		ops = append(ops, diffOp{'-', i, 0})
	}
	for j := range m {
		ops = append(ops, diffOp{'+', n, j})
	}
	return ops
}

// backtrack walks the trace of myers from the end back to the start to recover the edits.
func backtrack(trace [][]int, n, m int) []diffOp {
	var rev []diffOp
	x, y := n, m
	for d := len(trace) - 1; d >= 0; d-- {
		at := func(k int) int { return trace[d][k+d+1] }
		k := x - y
		var prevK int
		if k == -d || k != d && at(k-1) < at(k+1) {
			prevK = k + 1
		} else {
			prevK = k - 1
		}
		prevX := at(prevK)
		prevY := prevX - prevK
		for x > prevX && y > prevY {
			x, y = x-1, y-1
			rev = append(rev, diffOp{'=', x, y})
		}
		if d > 0 {
			if x == prevX {
				rev = append(rev, diffOp{'+', x, prevY})
			} else {
				rev = append(rev, diffOp{'-', prevX, y})
			}
		}
		x, y = prevX, prevY
	}
	for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
		rev[i], rev[j] = rev[j], rev[i]
	}
	return rev
}
