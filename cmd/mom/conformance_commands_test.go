package main

import (
	"fmt"
	"strings"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// Chat commands in the conformance suite: the same commands work on every platform as a
// message to mom, and an unknown one is a message to the model.

// withLocalModel names a second model, "local", on the fake's OpenAI-compatible side.
func (s *suite) withLocalModel() {
	s.top = fmt.Sprintf(`"models": {"local": {"provider": "openai", "baseUrl": %q, "id": "llama3.1:8b", "apiKey": "test-key"}}`, s.llm.OpenAIURL())
}

func commandBehaviours() []behaviour {
	return []behaviour{
		{name: "CommandHelpAndStatus", run: func(s *suite) {
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "/help")
			help := s.botSays(s.c.group, "/compact [focus]")
			for _, want := range []string{"/new", "/model [name]", "/cost", "/status", "/stop"} {
				if !strings.Contains(help, want) {
					s.t.Errorf("/help lacks %s:\n%s", want, help)
				}
			}
			s.mention(s.c.group, s.c.admin, "/status")
			status := s.botSays(s.c.group, "sandbox: host")
			if !strings.Contains(status, "model: default (anthropic/") || !strings.Contains(status, "no run here since mom started") {
				s.t.Errorf("/status = %q", status)
			}
			s.stop()
			s.requests(0, "commands are answered by mom, not the model")
		}},
		{name: "CommandModelSwitchesTheChannelsModel", run: func(s *suite) {
			s.withLocalModel()
			s.llm.Enqueue(fakellm.Text("Anthropic here."), fakellm.Text("Local here."))
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "hello")
			s.botSays(s.c.group, "Anthropic here.")
			s.mention(s.c.group, s.c.admin, "/model local")
			s.botSays(s.c.group, "This channel now uses local (openai/llama3.1:8b)")
			s.mention(s.c.group, s.c.admin, "hello again")
			s.botSays(s.c.group, "Local here.")
			reqs := s.requests(2, "one answer per model")
			if reqs[0].Protocol != fakellm.Anthropic || reqs[1].Protocol != fakellm.OpenAI || reqs[1].Model != "llama3.1:8b" {
				s.t.Errorf("requests went to %s and %s (%s)", reqs[0].Protocol, reqs[1].Protocol, reqs[1].Model)
			}
			if !strings.Contains(allText(reqs[1]), "hello") || !strings.Contains(allText(reqs[1]), "Anthropic here.") {
				s.t.Errorf("the conversation did not carry over to the new model:\n%s", allText(reqs[1]))
			}
			s.mention(s.c.group, s.c.admin, "/model")
			s.botSays(s.c.group, "This channel's model: local")
			s.stop()
		}},
		{name: "CommandModelNeedsAnAdmin", needs: []feature{featurePeople}, run: func(s *suite) {
			s.withLocalModel()
			s.run(`"busy": "queue"`)
			// The admin speaks first: where groups are the admins' (Telegram, Discord), that
			// is what lets the colleague talk to mom there at all.
			s.mention(s.c.group, s.c.admin, "/status")
			s.botSays(s.c.group, "sandbox:")
			s.mention(s.c.group, s.c.user, "/model local")
			s.botSays(s.c.group, "Only an admin can switch this channel's model.")
			s.mention(s.c.group, s.c.user, "/model")
			s.botSays(s.c.group, "This channel's model: default")
			s.stop()
		}},
		{name: "CommandNewForgetsTheConversation", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Text("Noted the secret."), fakellm.Text("What secret?"))
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "the secret word is plover")
			s.botSays(s.c.group, "Noted the secret.")
			s.mention(s.c.group, s.c.admin, "/new")
			s.botSays(s.c.group, "Fresh start")
			s.mention(s.c.group, s.c.admin, "what was the secret?")
			s.botSays(s.c.group, "What secret?")
			reqs := s.requests(2, "two answers")
			if text := allText(reqs[1]); strings.Contains(text, "plover") || strings.Contains(text, "Noted the secret.") {
				s.t.Errorf("the model saw the conversation before /new:\n%s", text)
			}
			s.stop()
			if n := len(s.log(s.c.group)); n < 5 {
				s.t.Errorf("log.jsonl has %d lines; /new must keep the history", n)
			}
		}},
		{name: "CommandCompactWithAFocus", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Text("First."), fakellm.Text("Second."), fakellm.Text("## Goal\nthe summary"))
			s.top = `"compaction": {"reserveTokens": 1000, "keepRecentTokens": 300}`
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "one")
			s.botSays(s.c.group, "First.")
			s.mention(s.c.group, s.c.admin, "two "+strings.Repeat("word ", 1500))
			s.botSays(s.c.group, "Second.")
			s.mention(s.c.group, s.c.admin, "/compact keep the names")
			s.botSays(s.c.group, "Compacted:")
			reqs := s.requests(3, "two answers and the summary")
			if !strings.Contains(allText(reqs[2]), "Additional focus: keep the names") {
				s.t.Errorf("the summary request lacks the focus:\n%s", allText(reqs[2]))
			}
			s.stop()
		}},
		{name: "CommandUnknownGoesToTheModel", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Text("I don't know that one."))
			s.run("")
			s.mention(s.c.group, s.c.admin, "/frobnicate the widget")
			s.botSays(s.c.group, "I don't know that one.")
			if got := s.llm.Requests()[0].LastUserText(); !strings.Contains(got, "/frobnicate the widget") {
				s.t.Errorf("the model saw %q", got)
			}
			s.stop()
		}},
		{name: "CommandCost", run: func(s *suite) {
			s.run("")
			s.mention(s.c.group, s.c.admin, "/cost")
			s.botSays(s.c.group, "today")
			s.stop()
			s.requests(0, "/cost is answered by mom")
		}},
	}
}
