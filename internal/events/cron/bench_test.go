package cron

import (
	"testing"
	"time"
)

func BenchmarkNext(b *testing.B) {
	loc := mustLoad(b, "Europe/Vienna")
	from := time.Date(2026, 5, 1, 10, 7, 30, 0, loc)
	for _, bc := range []struct{ name, expr string }{
		{"daily", "0 9 * * *"},
		{"every15min", "*/15 * * * *"},
		{"leapday", "0 0 29 2 *"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			s := mustParse(b, bc.expr, loc)
			b.ReportAllocs()
			for b.Loop() {
				if s.Next(from).IsZero() {
					b.Fatal("no fire time")
				}
			}
		})
	}
}
