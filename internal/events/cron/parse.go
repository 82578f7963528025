package cron

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"
	"time"
)

// fieldSpec describes one of the five cron fields.
type fieldSpec struct {
	name string
	// min and max bound the values that may be written explicitly.
	min, max int
	// top is the last value implied by "*" and "a/n". It is below max only for
	// day-of-week, where 7 is an alias for Sunday and must not be added twice.
	top int
	// names are the accepted names (JAN, SUN, ...); names[i] means value nameBase+i.
	names    []string
	nameBase int
	// dayField fields accept "?" as "*".
	dayField bool
	// sunday7 marks day-of-week, where 7 is another name for Sunday (0).
	sunday7 bool
}

// size is the number of distinct values of the field, the largest sensible step.
func (f *fieldSpec) size() int { return f.top - f.min + 1 }

// Field indexes into fieldSpecs, in expression order.
const (
	fieldMinute = iota
	fieldHour
	fieldDayOfMonth
	fieldMonth
	fieldDayOfWeek
	numFields
)

// fieldSpecs is a constant table; it is never modified.
var fieldSpecs = [numFields]fieldSpec{
	fieldMinute:     {name: "minute", min: 0, max: 59, top: 59},
	fieldHour:       {name: "hour", min: 0, max: 23, top: 23},
	fieldDayOfMonth: {name: "day-of-month", min: 1, max: 31, top: 31, dayField: true},
	fieldMonth: {name: "month", min: 1, max: 12, top: 12, nameBase: 1,
		names: []string{"JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"}},
	fieldDayOfWeek: {name: "day-of-week", min: 0, max: 7, top: 6, nameBase: 0, dayField: true, sunday7: true,
		names: []string{"SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"}},
}

// macros maps the accepted @-shortcuts to their 5-field expansion.
var macros = map[string]string{
	"@yearly":   "0 0 1 1 *",
	"@annually": "0 0 1 1 *",
	"@monthly":  "0 0 1 * *",
	"@weekly":   "0 0 * * 0",
	"@daily":    "0 0 * * *",
	"@midnight": "0 0 * * *",
	"@hourly":   "0 * * * *",
}

const fieldList = "minute hour day-of-month month day-of-week"

// Parse parses a 5-field cron expression "minute hour day-of-month month
// day-of-week" whose times are wall-clock times in loc (nil means UTC).
//
// Each field accepts "*", single values, ranges "a-b", steps "*/n", "a-b/n"
// and "a/n" (a to the field's last value), and comma-separated lists of those.
// Months accept JAN-DEC and days of the week SUN-SAT (case-insensitive), also
// in ranges; day-of-week 0 and 7 both mean Sunday; "?" is accepted as "*" in
// the two day fields. The macros @yearly, @annually, @monthly, @weekly, @daily,
// @midnight and @hourly are accepted too.
//
// Errors name the expression, the field and the problem, for example
// `cron "0 25 * * *": hour: 25 is out of range 0-23`.
func Parse(expr string, loc *time.Location) (*Schedule, error) {
	if loc == nil {
		loc = time.UTC
	}
	s := &Schedule{expr: expr, loc: loc}

	text := strings.TrimSpace(expr)
	if strings.HasPrefix(text, "@") {
		expanded, ok := macros[strings.ToLower(text)]
		if !ok {
			return nil, fmt.Errorf("cron %q: unknown macro %q (use @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly)", expr, text)
		}
		text = expanded
	}

	parts := strings.Fields(text)
	if len(parts) != numFields {
		return nil, fmt.Errorf("cron %q: needs 5 fields (%s), got %d%s", expr, fieldList, len(parts), extraFieldsHint(len(parts)))
	}

	sets := [numFields]uint64{}
	for i, part := range parts {
		set, err := parseField(&fieldSpecs[i], part)
		if err != nil {
			return nil, fmt.Errorf("cron %q: %s: %s", expr, fieldSpecs[i].name, err)
		}
		sets[i] = set
	}
	s.minute, s.hour = sets[fieldMinute], sets[fieldHour]
	s.dom, s.month, s.dow = sets[fieldDayOfMonth], sets[fieldMonth], sets[fieldDayOfWeek]
	// Only a literal "*" or "?" counts as unrestricted for the OR rule, as in
	// croner: "*/1" restricts, even though it matches every day.
	s.domStar = isStar(parts[fieldDayOfMonth])
	s.dowStar = isStar(parts[fieldDayOfWeek])
	s.fixed = bits.OnesCount64(s.minute) == 1 && bits.OnesCount64(s.hour) == 1
	return s, nil
}

// extraFieldsHint explains the usual reason for 6 or 7 fields: other cron
// dialects put seconds first and years last.
func extraFieldsHint(n int) string {
	switch n {
	case 6:
		return " (seconds are not supported)"
	case 7:
		return " (seconds and years are not supported)"
	}
	return ""
}

func isStar(part string) bool { return part == "*" || part == "?" }

// parseField parses one field into a bit set of its values (bit v set means
// value v matches). Day-of-week 7 is stored as 0.
func parseField(f *fieldSpec, text string) (uint64, error) {
	if text == "?" {
		if !f.dayField {
			return 0, fmt.Errorf(`"?" is only allowed in day-of-month and day-of-week`)
		}
		text = "*"
	}
	var set uint64
	for _, item := range strings.Split(text, ",") {
		if item == "" {
			return 0, fmt.Errorf("empty entry in list %q", text)
		}
		s, err := parseItem(f, item)
		if err != nil {
			return 0, err
		}
		set |= s
	}
	return set, nil
}

// parseItem parses one list entry: "*", "a", "a-b", each optionally followed by "/step".
func parseItem(f *fieldSpec, item string) (uint64, error) {
	base, stepText, hasStep := strings.Cut(item, "/")
	step := 1
	if hasStep {
		var err error
		if step, err = parseStep(f, item, stepText); err != nil {
			return 0, err
		}
	}

	var lo, hi int
	switch base {
	case "*":
		lo, hi = f.min, f.top
	case "?":
		if !f.dayField {
			return 0, fmt.Errorf(`"?" is only allowed in day-of-month and day-of-week`)
		}
		return 0, fmt.Errorf(`"?" must stand alone, not in a list or with a step`)
	case "":
		return 0, fmt.Errorf("missing value before %q in %q", "/", item)
	default:
		first, last, isRange := strings.Cut(base, "-")
		if isRange && (first == "" || last == "" || strings.Contains(last, "-")) {
			return 0, fmt.Errorf("%q is not a value or a range a-b", base)
		}
		var err error
		if lo, err = parseValue(f, first, false); err != nil {
			return 0, err
		}
		switch {
		case isRange:
			if hi, err = parseValue(f, last, true); err != nil {
				return 0, err
			}
			if f.sunday7 && lo == 0 && hi == 7 && !allDigits(last) {
				hi = 0 // "SUN-SUN" is Sunday, not the whole week
			}
			if lo > hi {
				return 0, fmt.Errorf("range %q is reversed: %d comes after %d", base, lo, hi)
			}
		case hasStep:
			// "a/n" runs from a to the field's last value.
			hi = f.top
			if lo > hi {
				return 0, fmt.Errorf("%q starts at %d, after the field's last value %d", item, lo, hi)
			}
		default:
			hi = lo
		}
	}

	var set uint64
	for v := lo; v <= hi; v += step {
		set |= 1 << uint(normalize(f, v))
	}
	return set, nil
}

// normalize maps day-of-week 7 to 0 (both are Sunday); other values are unchanged.
func normalize(f *fieldSpec, v int) int {
	if f.sunday7 && v == 7 {
		return 0
	}
	return v
}

// parseStep parses the n of "/n": a whole number from 1 to the field's size.
func parseStep(f *fieldSpec, item, text string) (int, error) {
	if text == "" {
		return 0, fmt.Errorf("missing step after %q in %q", "/", item)
	}
	if !allDigits(text) {
		return 0, fmt.Errorf("step %q in %q is not a number", text, item)
	}
	n, err := strconv.Atoi(text)
	if err != nil || n > f.size() {
		return 0, fmt.Errorf("step %s in %q is too large (at most %d)", text, item, f.size())
	}
	if n == 0 {
		return 0, fmt.Errorf("step must be at least 1 in %q", item)
	}
	return n, nil
}

// parseValue parses a number or a name. upper is set for the end of a range,
// where SUN means 7 so that "FRI-SUN" is not reversed.
func parseValue(f *fieldSpec, text string, upper bool) (int, error) {
	if allDigits(text) {
		n, err := strconv.Atoi(text)
		if err != nil || n < f.min || n > f.max {
			return 0, fmt.Errorf("%s is out of range %d-%d", text, f.min, f.max)
		}
		return n, nil
	}
	if f.names == nil || text == "" {
		return 0, fmt.Errorf("%q is not a number", text)
	}
	for i, name := range f.names {
		if strings.EqualFold(text, name) {
			v := f.nameBase + i
			if upper && f.sunday7 && v == 0 {
				v = 7
			}
			return v, nil
		}
	}
	return 0, fmt.Errorf("%q is neither a number (%d-%d) nor a name (%s-%s)",
		text, f.min, f.max, f.names[0], f.names[len(f.names)-1])
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
