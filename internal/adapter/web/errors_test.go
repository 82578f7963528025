package web

import (
	"strings"
	"testing"
)

// TestErrorSummary: the model servers' usual failures read as what they are; anything else
// as its first line, cut to maxSummary; the whole message is the card's details.
func TestErrorSummary(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ msg, want string }{
		{`anthropic API: could not connect to the model server (connection refused): Post "http://127.0.0.1:1/v1/messages": dial tcp 127.0.0.1:1: connect: connection refused`, "The model server is unreachable"},
		{"openai API: the model server did not answer in time: context deadline exceeded", "The model server is unreachable"},
		{"anthropic API error 401: invalid x-api-key", "The model server refused mom's API key"},
		{"anthropic API error 429: rate limited", "The model server is limiting requests (rate limit)"},
		{"anthropic API error 529: Overloaded", "The model server is failing or overloaded"},
		{"mom has no API key for anthropic (model claude-sonnet-4-5).\n\nExport it in the shell that starts mom:\n\n    export ANTHROPIC_API_KEY=sk-ant-...", "mom has no API key for anthropic (model claude-sonnet-4-5)."},
		{"", "The run failed without saying why"},
		{strings.Repeat("é", 200), strings.Repeat("é", maxSummary/2) + "…"},
	} {
		if got := errorSummary(c.msg); got != c.want {
			t.Errorf("errorSummary(%.60q) = %q, want %q", c.msg, got, c.want)
		}
	}
}
