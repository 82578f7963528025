package fakeslack

import "time"

// MaxEditsPerSecond is how many chat.update calls on one message within one second the server
// takes without recording a violation. Slack puts chat.update in its Tier 3 (50+ calls a minute
// per app and workspace, sporadic bursts welcome) and, like chat.postMessage's documented one
// message per second per channel, it throttles writes to one place. A client that edits one
// message more often than this streams every change unthrottled, and at that pace one long
// answer alone uses up Tier 3's minute within seconds, after which Slack answers 429. The
// threshold is deliberately above one a second, so that a client's last throttled edit and
// its final one may come close together.
const MaxEditsPerSecond = 3

// editWindow is the span MaxEditsPerSecond counts over.
const editWindow = time.Second

// noteEdit records a chat.update of m at now and records a violation when it is one too many
// for the last second. Call it with s.mu held.
func (s *Server) noteEdit(ch *channel, m *message, now time.Time) {
	kept := m.updates[:0]
	for _, t := range m.updates {
		if now.Sub(t) < editWindow {
			kept = append(kept, t)
		}
	}
	m.updates = append(kept, now)
	if n := len(m.updates); n > MaxEditsPerSecond {
		s.Violate("chat.update: message %s in %s edited %d times within a second; Slack's chat.update is Tier 3 "+
			"(about 50 a minute) and it rate-limits a client that edits one message this often (throttle the edits)",
			m.ts, ch.ID, n)
	}
}
