package approval

import (
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// Outcome says in a line of markdown how a request ended: decision, by whom when a person
// decided, and timeout for a request nobody answered.
func Outcome(decision string, by *chat.User, timeout time.Duration) string {
	name := "someone"
	if by != nil {
		name = Who(*by)
	}
	switch decision {
	case Allow:
		return "✅ Allowed by " + name
	case Always:
		return "✅ Allowed always in this channel by " + name
	case Deny:
		return "🚫 Denied by " + name
	case Timeout:
		return "⌛ Nobody answered within " + Minutes(timeout) + ": denied"
	case Restart:
		return "🚫 Denied: mom restarted before anyone answered"
	default:
		return "🚫 Stopped while waiting"
	}
}

// Who names a person in a request's outcome: their handle and, where it differs, their id.
func Who(u chat.User) string {
	if u.Username != "" && u.Username != u.ID {
		return u.Username + " (" + u.ID + ")"
	}
	if u.ID == "" {
		return u.Username
	}
	return u.ID
}

// Minutes writes a timeout as people say it.
func Minutes(d time.Duration) string {
	if d%time.Minute == 0 {
		if d == time.Minute {
			return "1 minute"
		}
		return fmt.Sprintf("%d minutes", int(d/time.Minute))
	}
	return d.Round(time.Second).String()
}
