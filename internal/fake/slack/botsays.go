package fakeslack

import (
	"fmt"
	"strings"
	"testing"
)

// WaitBotSays waits until the bot has a message in channel whose text contains want, and
// returns it: at the top level when thread is "", else among the thread's replies. It fails
// t when none comes within DefaultWait. A status message that grows into the answer counts
// as soon as it contains want.
func (s *Server) WaitBotSays(t testing.TB, channel, thread, want string) Message {
	t.Helper()
	var found Message
	s.WaitFor(t, fmt.Sprintf("the bot to say %q in %s/%s", want, channel, thread), func() bool {
		shown := s.Messages(channel)
		if thread != "" {
			shown = s.Replies(channel, thread)
		}
		for _, m := range shown {
			if m.User == s.cfg.botUser && strings.Contains(m.Text, want) {
				found = m
				return true
			}
		}
		return false
	})
	return found
}
