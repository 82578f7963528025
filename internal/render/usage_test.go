package render

import (
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

func TestTokens(t *testing.T) {
	for n, want := range map[int]string{
		0: "0", 999: "999", 1000: "1.0k", 1234: "1.2k", 9999: "10.0k", 10_000: "10k", 12_499: "12k",
		999_499: "999k", 1_000_000: "1.0M", 2_345_678: "2.3M",
	} {
		if got := Tokens(n); got != want {
			t.Errorf("Tokens(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestUsageLine(t *testing.T) {
	u := llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}.Apply(
		llm.Usage{Input: 3100, Output: 120, CacheRead: 2000})
	ev := run.Event{Type: run.AgentEnd, Usage: &u, ContextTokens: 5220, ContextWindow: 200_000}
	want := "3.1k in, 120 out · cache 2.0k read, 0 write · context 5.2k of 200k (2.6%) · $0.0117"
	if got := UsageLine(ev); got != want {
		t.Errorf("UsageLine =\n %q\nwant\n %q", got, want)
	}
	if got := UsageLine(run.Event{Usage: &llm.Usage{}}); got != "" {
		t.Errorf("a run without tokens gave %q", got)
	}
}
