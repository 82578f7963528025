package web

import "strings"

// maxSummary is the longest error summary the page shows on an error card; the whole error
// is in its folded details.
const maxSummary = 160

// errorSummary says in a few words what went wrong with a run, for the error card and the
// retry line: the kind of failure when the message is one of the model servers' usual ones,
// otherwise its first line. The message itself, with its line breaks, goes in the details.
func errorSummary(msg string) string {
	low := strings.ToLower(msg)
	has := func(words ...string) bool {
		for _, w := range words {
			if strings.Contains(low, w) {
				return true
			}
		}
		return false
	}
	switch {
	case has("connection refused", "could not connect", "dropped the connection", "no such host", "network is unreachable",
		"did not answer in time", "sent nothing for", "i/o timeout", "connection reset"):
		return "The model server is unreachable"
	case has("api error 401", "api error 403"):
		return "The model server refused mom's API key"
	case has("api error 429"):
		return "The model server is limiting requests (rate limit)"
	case has("api error 500", "api error 502", "api error 503", "api error 504", "api error 529", "overloaded"):
		return "The model server is failing or overloaded"
	case has("answer was cut off", "stream ended early", "stopped before it was complete"):
		return "The model's answer broke off"
	}
	first, _, _ := strings.Cut(strings.TrimSpace(msg), "\n")
	first = strings.TrimSpace(first)
	if first == "" {
		return "The run failed without saying why"
	}
	if len(first) > maxSummary {
		n := maxSummary
		for n > 0 && (first[n]&0xC0) == 0x80 {
			n--
		}
		first = first[:n] + "…"
	}
	return first
}
