package chat

import "strings"

// IsSilent reports whether an answer asks for no reply at all, as the original mom's [SILENT]
// convention does: a periodic check that found nothing to say answers "[SILENT]", and people
// see nothing of the run.
func IsSilent(answer string) bool {
	return strings.HasPrefix(strings.TrimSpace(answer), "[SILENT]")
}
