package compact

// Settings say when to compact and how much to keep. The zero value is not useful; start from
// Defaults.
type Settings struct {
	// ReserveTokens is the room kept free in the context window for the next answer and the
	// system prompt: compaction starts when the context holds more than the window minus this.
	ReserveTokens int
	// KeepRecentTokens is about how many tokens of the newest messages survive a compaction
	// word for word.
	KeepRecentTokens int
}

// The defaults, the same as pi-coding-agent's.
const (
	DefaultReserveTokens    = 16384
	DefaultKeepRecentTokens = 20000
)

// Defaults returns pi's settings: reserve 16,384 tokens, keep the newest 20,000.
func Defaults() Settings {
	return Settings{ReserveTokens: DefaultReserveTokens, KeepRecentTokens: DefaultKeepRecentTokens}
}

// Threshold is the context size above which a context of window tokens should be compacted.
func (s Settings) Threshold(window int) int { return window - s.ReserveTokens }

// ShouldCompact reports whether a context of tokens has outgrown a window of window tokens
// (pi's contextTokens > contextWindow − reserveTokens). An unknown window (0) never does.
func (s Settings) ShouldCompact(tokens, window int) bool {
	return window > 0 && tokens > s.Threshold(window)
}

// keepFor is how much to keep in a window of window tokens: KeepRecentTokens, but never more
// than half of what fits below the threshold (a quarter of the window when the reserve leaves
// nothing), so that a small local model with pi's defaults still gets a compaction that
// shrinks its context instead of one that keeps everything.
func (s Settings) keepFor(window int) int {
	keep := s.KeepRecentTokens
	if window <= 0 {
		return keep
	}
	limit := s.Threshold(window) / 2
	if limit <= 0 {
		limit = window / 4
	}
	return max(1, min(keep, limit))
}

// summaryMaxTokens is how long a summary may be: 80% of the reserve, as in pi.
func (s Settings) summaryMaxTokens() int { return max(256, s.ReserveTokens*8/10) }
