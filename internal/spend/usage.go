package spend

import (
	"bytes"
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/mom-agent/mom/internal/config"
)

// Groupings lists what UsageTable can group calls by.
var Groupings = []string{"channel", "person", "model", "day"}

// UsageTable is `mom usage`: the calls in the ledger of the data directory dataDir made at
// or after since, grouped by by (one of Groupings) with their count, tokens and cost, most
// expensive first (days in order), and the total. Days are dates in loc.
func UsageTable(dataDir, by string, since time.Time, loc *time.Location) (string, error) {
	if !slices.Contains(Groupings, by) {
		return "", fmt.Errorf("cannot group by %q (use one of: channel, person, model, day)", by)
	}
	sums := map[string]Total{}
	var all Total
	err := Read(dataDir, since, func(r Record) error {
		key := groupOf(r, by, loc)
		sums[key] = sums[key].add(r)
		all = all.add(r)
		return nil
	})
	if err != nil {
		return "", err
	}
	keys := make([]string, 0, len(sums))
	for k := range sums {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b string) int {
		if by == "day" {
			return cmp.Compare(a, b)
		}
		return cmp.Or(cmp.Compare(sums[b].USD, sums[a].USD), cmp.Compare(sums[b].Tokens, sums[a].Tokens), cmp.Compare(a, b))
	})
	var out bytes.Buffer
	fmt.Fprintf(&out, "Model calls since %s, by %s:\n\n", since.In(loc).Format("2006-01-02 15:04 MST"), by)
	if len(keys) == 0 {
		out.WriteString("  none recorded\n")
		return out.String(), nil
	}
	rows := [][]string{{by, "calls", "tokens", "cost"}}
	row := func(name string, t Total) {
		rows = append(rows, []string{name, config.Count(t.Calls), config.Count(t.Tokens), fmt.Sprintf("$%.4f", t.USD)})
	}
	for _, k := range keys {
		row(k, sums[k])
	}
	row("total", all)
	writeTable(&out, rows)
	return out.String(), nil
}

// writeTable writes rows in columns, the first aligned left and the numbers right.
func writeTable(out *bytes.Buffer, rows [][]string) {
	widths := make([]int, len(rows[0]))
	for _, r := range rows {
		for i, cell := range r {
			widths[i] = max(widths[i], utf8.RuneCountInString(cell))
		}
	}
	for _, r := range rows {
		out.WriteString("  ")
		for i, cell := range r {
			pad := strings.Repeat(" ", widths[i]-utf8.RuneCountInString(cell))
			if i == 0 {
				out.WriteString(cell + pad)
			} else {
				out.WriteString("   " + pad + cell)
			}
		}
		out.WriteString("\n")
	}
}

// groupOf is the row r counts in.
func groupOf(r Record, by string, loc *time.Location) string {
	switch by {
	case "person":
		switch {
		case r.WakeUp != "":
			return "wake-ups in " + r.Adapter + "/" + r.Channel
		case r.User != "":
			return r.Adapter + "/" + r.User
		}
		return "(nobody: " + r.Adapter + "/" + r.Channel + ")"
	case "model":
		return r.Provider + "/" + r.Model
	case "day":
		return r.At.In(loc).Format(time.DateOnly)
	}
	if r.Adapter == "" {
		return "(no channel)"
	}
	return r.Adapter + "/" + r.Channel
}
