package metrics

// Transcribed counts an audio file people sent, by how its transcription went ("ok",
// "too_long", "too_large", "failed"), with the seconds transcribed and what they cost
// (transcribe.Options.Observe).
func (m *Metrics) Transcribed(result string, seconds, cost float64) {
	m.counter("mom_transcriptions_total", "result", result).Inc()
	if result == "ok" && seconds > 0 {
		m.floatCounter("mom_transcribed_seconds_total").Add(seconds)
	}
	if cost > 0 {
		m.floatCounter("mom_transcription_cost_usd_total").Add(cost)
	}
}
