package chat

import "strings"

// Silent is the answer that asks for no reply at all, as the original mom's convention has it:
// a periodic check that found nothing to say answers exactly "[SILENT]", and people see
// nothing of the run.
const Silent = "[SILENT]"

// IsSilent reports whether an answer is exactly Silent, give or take surrounding white space.
// An answer that only starts with it ("[SILENT] nothing new, but ...") says something, so it
// is shown: the system prompt and the README promise "exactly".
func IsSilent(answer string) bool {
	return strings.TrimSpace(answer) == Silent
}

// MaybeSilent reports whether an answer streamed so far could still turn out to be Silent, so
// a chat that shows text as it streams holds it back until it knows.
func MaybeSilent(sofar string) bool {
	s := strings.TrimLeft(sofar, " \t\r\n")
	if len(s) <= len(Silent) {
		return strings.HasPrefix(Silent, s)
	}
	return IsSilent(s)
}
