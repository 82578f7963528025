package cron

import (
	"slices"
	"testing"
	"time"
)

// values lists the members of a bit set, for readable comparisons.
func values(set uint64) []int {
	var out []int
	for v := 0; v < 64; v++ {
		if set&(1<<uint(v)) != 0 {
			out = append(out, v)
		}
	}
	return out
}

func seq(lo, hi, step int) []int {
	var out []int
	for v := lo; v <= hi; v += step {
		out = append(out, v)
	}
	return out
}

func TestParseFields(t *testing.T) {
	tests := []struct {
		expr                          string
		minute, hour, dom, month, dow []int
		domStar, dowStar, fixed       bool
	}{
		{"0 9 * * *", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"*/15 * * * *", []int{0, 15, 30, 45}, seq(0, 23, 1), seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, false},
		{"0 9 * * 1-5", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(1, 5, 1), true, false, true},
		{"0 9 * * MON-FRI", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(1, 5, 1), true, false, true},
		{"0 9 * * mon-Fri", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(1, 5, 1), true, false, true},
		{"0 9 * * FRI-SUN", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{0, 5, 6}, true, false, true},
		{"0 9 * * SUN-SUN", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{0}, true, false, true},
		{"0 9 * * SUN-SAT", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, false, true},
		{"0 9 * * 5-7", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{0, 5, 6}, true, false, true},
		{"0 9 * * 7", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{0}, true, false, true},
		{"0 9 * * 0-7", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, false, true},
		{"0 9 * * 1/2", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{1, 3, 5}, true, false, true},
		{"0 9 * * */2", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), []int{0, 2, 4, 6}, true, false, true},
		{"5/20 1-5/2 1,15 JAN,jul-SEP *", []int{5, 25, 45}, []int{1, 3, 5}, []int{1, 15}, []int{1, 7, 8, 9}, seq(0, 6, 1), false, true, false},
		{"0 9 1,15 * MON", []int{0}, []int{9}, []int{1, 15}, seq(1, 12, 1), []int{1}, false, false, true},
		{"0 9 ? * ?", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"0 9 */1 * *", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), false, true, true},
		{"0,30 9 * * *", []int{0, 30}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, false},
		{"0 9-9 * * *", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"*/60 */24 * * *", []int{0}, []int{0}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"0 0 1 1 *", []int{0}, []int{0}, []int{1}, []int{1}, seq(0, 6, 1), false, true, true},
		{"  0\t9  *  *  *  ", []int{0}, []int{9}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"@daily", []int{0}, []int{0}, seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, true},
		{"@HOURLY", []int{0}, seq(0, 23, 1), seq(1, 31, 1), seq(1, 12, 1), seq(0, 6, 1), true, true, false},
		{"@weekly", []int{0}, []int{0}, seq(1, 31, 1), seq(1, 12, 1), []int{0}, true, false, true},
		{"@yearly", []int{0}, []int{0}, []int{1}, []int{1}, seq(0, 6, 1), false, true, true},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			s, err := Parse(tt.expr, time.UTC)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			check := func(name string, got uint64, want []int) {
				if !slices.Equal(values(got), want) {
					t.Errorf("%s = %v, want %v", name, values(got), want)
				}
			}
			check("minute", s.minute, tt.minute)
			check("hour", s.hour, tt.hour)
			check("day-of-month", s.dom, tt.dom)
			check("month", s.month, tt.month)
			check("day-of-week", s.dow, tt.dow)
			if s.domStar != tt.domStar || s.dowStar != tt.dowStar || s.fixed != tt.fixed {
				t.Errorf("domStar, dowStar, fixed = %v, %v, %v; want %v, %v, %v",
					s.domStar, s.dowStar, s.fixed, tt.domStar, tt.dowStar, tt.fixed)
			}
			if s.String() != tt.expr {
				t.Errorf("String() = %q, want %q", s.String(), tt.expr)
			}
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct{ expr, want string }{
		{"0 25 * * *", `cron "0 25 * * *": hour: 25 is out of range 0-23`},
		{"0 9 * *", `cron "0 9 * *": needs 5 fields (minute hour day-of-month month day-of-week), got 4`},
		{"", `cron "": needs 5 fields (minute hour day-of-month month day-of-week), got 0`},
		{"   ", `cron "   ": needs 5 fields (minute hour day-of-month month day-of-week), got 0`},
		{"0 0 9 * * *", `cron "0 0 9 * * *": needs 5 fields (minute hour day-of-month month day-of-week), got 6 (seconds are not supported)`},
		{"0 0 9 * * * 2026", `cron "0 0 9 * * * 2026": needs 5 fields (minute hour day-of-month month day-of-week), got 7 (seconds and years are not supported)`},
		{"0 0 9 * * * 2026 x", `cron "0 0 9 * * * 2026 x": needs 5 fields (minute hour day-of-month month day-of-week), got 8`},
		{"60 * * * *", `cron "60 * * * *": minute: 60 is out of range 0-59`},
		{"0 0 0 * *", `cron "0 0 0 * *": day-of-month: 0 is out of range 1-31`},
		{"0 0 32 * *", `cron "0 0 32 * *": day-of-month: 32 is out of range 1-31`},
		{"0 0 * 13 *", `cron "0 0 * 13 *": month: 13 is out of range 1-12`},
		{"0 0 * 0 *", `cron "0 0 * 0 *": month: 0 is out of range 1-12`},
		{"0 0 * * 8", `cron "0 0 * * 8": day-of-week: 8 is out of range 0-7`},
		{"0 0 * * 99999999999999999999", `cron "0 0 * * 99999999999999999999": day-of-week: 99999999999999999999 is out of range 0-7`},
		{"0 17-9 * * *", `cron "0 17-9 * * *": hour: range "17-9" is reversed: 17 comes after 9`},
		{"0 9 * * FRI-MON", `cron "0 9 * * FRI-MON": day-of-week: range "FRI-MON" is reversed: 5 comes after 1`},
		{"0 9 * DEC-JAN *", `cron "0 9 * DEC-JAN *": month: range "DEC-JAN" is reversed: 12 comes after 1`},
		{"*/0 * * * *", `cron "*/0 * * * *": minute: step must be at least 1 in "*/0"`},
		{"0-30/0 * * * *", `cron "0-30/0 * * * *": minute: step must be at least 1 in "0-30/0"`},
		{"*/61 * * * *", `cron "*/61 * * * *": minute: step 61 in "*/61" is too large (at most 60)`},
		{"*/x * * * *", `cron "*/x * * * *": minute: step "x" in "*/x" is not a number`},
		{"*/ * * * *", `cron "*/ * * * *": minute: missing step after "/" in "*/"`},
		{"/5 * * * *", `cron "/5 * * * *": minute: missing value before "/" in "/5"`},
		{"*/5/2 * * * *", `cron "*/5/2 * * * *": minute: step "5/2" in "*/5/2" is not a number`},
		{"0 9 * * FOO", `cron "0 9 * * FOO": day-of-week: "FOO" is neither a number (0-7) nor a name (SUN-SAT)`},
		{"0 9 * JANUARY *", `cron "0 9 * JANUARY *": month: "JANUARY" is neither a number (1-12) nor a name (JAN-DEC)`},
		{"0 9 * MON *", `cron "0 9 * MON *": month: "MON" is neither a number (1-12) nor a name (JAN-DEC)`},
		{"0 9 JAN * *", `cron "0 9 JAN * *": day-of-month: "JAN" is not a number`},
		{"x * * * *", `cron "x * * * *": minute: "x" is not a number`},
		{"-1 * * * *", `cron "-1 * * * *": minute: "-1" is not a value or a range a-b`},
		{"+1 * * * *", `cron "+1 * * * *": minute: "+1" is not a number`},
		{"1- * * * *", `cron "1- * * * *": minute: "1-" is not a value or a range a-b`},
		{"1-2-3 * * * *", `cron "1-2-3 * * * *": minute: "1-2-3" is not a value or a range a-b`},
		{"-/2 * * * *", `cron "-/2 * * * *": minute: "-" is not a value or a range a-b`},
		{"1,,2 * * * *", `cron "1,,2 * * * *": minute: empty entry in list "1,,2"`},
		{"1, * * * *", `cron "1, * * * *": minute: empty entry in list "1,"`},
		{"? * * * *", `cron "? * * * *": minute: "?" is only allowed in day-of-month and day-of-week`},
		{"?,1 * * * *", `cron "?,1 * * * *": minute: "?" is only allowed in day-of-month and day-of-week`},
		{"0 0 ?,1 * *", `cron "0 0 ?,1 * *": day-of-month: "?" must stand alone, not in a list or with a step`},
		{"0 0 ?/2 * *", `cron "0 0 ?/2 * *": day-of-month: "?" must stand alone, not in a list or with a step`},
		{"0 0 * * 7/2", `cron "0 0 * * 7/2": day-of-week: "7/2" starts at 7, after the field's last value 6`},
		{"0 0 L * *", `cron "0 0 L * *": day-of-month: "L" is not a number`},
		{"0 0 * * 1#2", `cron "0 0 * * 1#2": day-of-week: "1#2" is neither a number (0-7) nor a name (SUN-SAT)`},
		{"@reboot", `cron "@reboot": unknown macro "@reboot" (use @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly)`},
		{"@daily 5", `cron "@daily 5": unknown macro "@daily 5" (use @yearly, @annually, @monthly, @weekly, @daily, @midnight or @hourly)`},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			s, err := Parse(tt.expr, time.UTC)
			if err == nil {
				t.Fatalf("Parse succeeded (%+v), want error %q", s, tt.want)
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n got %s\nwant %s", err, tt.want)
			}
		})
	}
}

func TestParseNilLocationIsUTC(t *testing.T) {
	s, err := Parse("0 9 * * *", nil)
	if err != nil {
		t.Fatal(err)
	}
	got := s.Next(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	if want := time.Date(2026, 1, 1, 9, 0, 0, 0, time.UTC); !got.Equal(want) || got.Location() != time.UTC {
		t.Errorf("Next = %v, want %v in UTC", got, want)
	}
}
