package main

import (
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestPromptNamesThePlatform: the system prompt tells the model where it lives in the words
// people use for each platform, which the platform gives the registry: the app builds every
// adapter, and the prompt, without naming one.
func TestPromptNamesThePlatform(t *testing.T) {
	want := map[string]string{"terminal": "a terminal", "slack": "Slack", "discord": "Discord",
		"telegram": "Telegram", "web": "a web chat"}
	for _, c := range platforms() {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			pf := c.make(t)
			s := &suite{chatWorld: newChatWorld(t, "chat", c.name, pf), t: t, c: pf.cast()}
			s.llm.Enqueue(fakellm.Text("Here."))
			s.run("")
			s.mention(s.c.group, s.c.admin, "where are we?")
			s.botSays(s.c.group, "Here.")
			s.stop()
			line := "You are mom, a chat assistant that lives in " + want[c.name] + "."
			if sys := s.requests(1, "one mention")[0].System; want[c.name] == "" || !strings.Contains(sys, line) {
				t.Errorf("the system prompt does not say %q:\n%.300s", line, sys)
			}
		})
	}
}
