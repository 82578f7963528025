package metrics

// Load is how busy mom is at one moment (hub.Load).
type Load struct {
	Running, WaitingForSlot, Queued int
}

// WatchLoad reports load(), asked at each scrape, as mom_runs_running (runs going),
// mom_runs_waiting_for_slot (runs waiting for one of maxConcurrentRuns) and
// mom_triggers_queued (triggers waiting behind their channel's run).
func (m *Metrics) WatchLoad(load func() Load) {
	m.set.GetOrCreateGauge("mom_runs_running", func() float64 { return float64(load().Running) })
	m.set.GetOrCreateGauge("mom_runs_waiting_for_slot", func() float64 { return float64(load().WaitingForSlot) })
	m.set.GetOrCreateGauge("mom_triggers_queued", func() float64 { return float64(load().Queued) })
}
