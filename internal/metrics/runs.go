package metrics

import (
	"time"

	"github.com/mom-agent/mom/internal/run"
)

// RunStarted counts a run and returns the sink that counts what happens in it: how it ended
// and how long it took, its tool calls, retries, compactions and approvals (hub.Observer).
func (m *Metrics) RunStarted(adapter, channelID string, wakeUp bool) run.Sink {
	trigger := "message"
	if wakeUp {
		trigger = "event"
	}
	where := m.where(adapter, channelID)
	m.counter("mom_runs_started_total", with(where, "trigger", trigger)...).Inc()
	began := time.Now()
	var asked time.Time // when the approval being waited for was asked; one at a time
	return func(ev run.Event) {
		switch ev.Type {
		case run.AgentEnd:
			m.counter("mom_runs_finished_total", with(where, "result", string(ev.StopReason))...).Inc()
			observe(m.histogram("mom_run_duration_seconds", runBuckets, "adapter", adapter), time.Since(began))
		case run.ToolEnd:
			outcome := "ok"
			if ev.IsError {
				outcome = "error"
			}
			m.counter("mom_tool_calls_total", with(where, "tool", ev.ToolName, "outcome", outcome)...).Inc()
			observe(m.histogram("mom_tool_call_duration_seconds", toolBuckets, "tool", ev.ToolName), ev.Duration)
		case run.RetryStart:
			m.counter("mom_model_retries_total", where...).Inc()
		case run.CompactionEnd:
			result, reason := "ok", ""
			if ev.ErrorMessage != "" {
				result = "error"
			}
			if ev.Compaction != nil {
				reason = ev.Compaction.Reason
			}
			m.counter("mom_compactions_total", with(where, "reason", reason, "result", result)...).Inc()
		case run.ApprovalEnd:
			if ev.Approval != nil {
				m.counter("mom_approvals_total", with(where, "decision", ev.Approval.Decision)...).Inc()
				observe(m.histogram("mom_approval_wait_seconds", approvalBuckets, "adapter", adapter), time.Since(asked))
			}
		case run.ApprovalStart:
			asked = time.Now()
		}
	}
}

// Busy counts a trigger that came while its channel was busy, by how it was answered
// (hub.Observer).
func (m *Metrics) Busy(adapter, channelID, how string) {
	m.counter("mom_busy_replies_total", with(m.where(adapter, channelID), "policy", how)...).Inc()
}

// with returns labels followed by more, in a slice of its own.
func with(labels []string, more ...string) []string {
	out := make([]string, 0, len(labels)+len(more))
	return append(append(out, labels...), more...)
}
