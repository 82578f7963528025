package approval

import "github.com/mom-agent/mom/internal/chat"

// The answers people can give, and the other ways a request ends (Request.Decision).
const (
	// Allow lets this one call run.
	Allow = "allow"
	// Always lets this call run, and the same command or tool in the channel from now on.
	Always = "always"
	// Deny refuses the call.
	Deny = "deny"
	// Timeout: nobody answered in time, which is a no.
	Timeout = "timeout"
	// Stopped: the run was stopped while it waited.
	Stopped = "stopped"
	// Restart: mom restarted while the request waited; it was not run.
	Restart = "restart"
)

// Request is one question to people about one call, as a run shows it: approval_start
// carries it with Text, approval_end again with Decision and Outcome.
type Request struct {
	// ID names the request; the buttons of its question carry it.
	ID string `json:"id"`
	// Text is the question, markdown: what will run, what for, and where; Hint says who may
	// answer and until when, for as long as the question is open.
	Text string `json:"text"`
	Hint string `json:"hint,omitempty"`
	// Decision is how it ended (Allow, Always, Deny, Timeout, Stopped), and By who decided
	// when a person did; Outcome says so in a line of markdown (approval_end).
	Decision string     `json:"decision,omitempty"`
	By       *chat.User `json:"by,omitempty"`
	Outcome  string     `json:"outcome,omitempty"`
}

// Allows reports whether the decision lets the call run.
func (r Request) Allows() bool { return r.Decision == Allow || r.Decision == Always }

// Asking is the question's text while it is open, markdown; typed adds how to answer by
// typing, for platforms without buttons.
func (r Request) Asking(typed bool) string {
	text := r.Text + "\n" + r.Hint
	if typed {
		text += "\nReply **yes**, **always** (allow this in this channel from now on) or **no**."
	}
	return text
}

// Settled is the question's text once decided, markdown: what was asked and the outcome.
func (r Request) Settled() string {
	return r.Text + "\n**" + r.Outcome + "**"
}

// Question is the request as a question with buttons: Allow, Allow always in this channel,
// Deny.
func (r Request) Question() chat.Question {
	return chat.Question{ID: r.ID, Text: r.Asking(false), Choices: []chat.Choice{
		{Value: Allow, Label: "Allow", Style: chat.StylePrimary},
		{Value: Always, Label: "Allow always in this channel"},
		{Value: Deny, Label: "Deny", Style: chat.StyleDanger},
	}}
}

// ParseTyped reads an answer typed as a message, for platforms without buttons: yes, always
// or no (and a few obvious spellings of them). ok is false for anything else.
func ParseTyped(text string) (decision string, ok bool) {
	switch normalize(text) {
	case "yes", "y", "allow", "ok", "approve":
		return Allow, true
	case "always", "a", "allow always":
		return Always, true
	case "no", "n", "deny":
		return Deny, true
	}
	return "", false
}
