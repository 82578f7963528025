package main

import (
	"fmt"
	"github.com/mom-agent/mom/internal/apptest"
	"html"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	discordadapter "github.com/mom-agent/mom/internal/adapter/discord"
	slackadapter "github.com/mom-agent/mom/internal/adapter/slack"
	tgadapter "github.com/mom-agent/mom/internal/adapter/telegram"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/render"
)

// The conformance suite is one table of behaviours that every chat adapter must show, run
// against each platform through its loopback fake and the real binary. A new adapter is done
// when it passes: add its platform to platforms() and implement the platform interface in its
// own test file.

// platform is one chat platform as the suite drives it: the entry that points mom's adapter at
// the platform's fake, and a person's side of the conversation.
type platform interface {
	// adapter returns the keys of mom's adapter entry ("type", tokens, "apiUrl", ...), without
	// braces and without the access keys the suite adds.
	adapter() string
	// cast names the people and conversations of the fake world.
	cast() cast
	// started is called once mom runs; it returns when mom is connected to the platform.
	started(t testing.TB, p *proc)
	// say makes a person post in a channel.
	say(t *testing.T, m said)
	// shown returns what the bot shows in a channel now, as the platform renders it: each
	// message's current text, thread replies included, oldest first.
	shown(channel string) []string
	// deleted counts the bot's messages deleted in a channel.
	deleted(channel string) int
	// uploads returns the files the bot sent to a channel.
	uploads(t *testing.T, channel string) []sentFile
	// drop cuts mom's connection to the platform; reconnected reports whether mom has come
	// back since the last drop.
	drop()
	reconnected() bool
	// lacks says why the platform cannot take part in a feature's behaviours, or "" when it
	// can.
	lacks(f feature) string
	// maxText is the longest message the platform takes, in characters (0: no limit).
	maxText() int
	// codeIntact reports whether one message keeps its code blocks whole: every block opened
	// in it is closed in it.
	codeIntact(text string) bool
	// violations lists the protocol rules mom broke, as the fake recorded them.
	violations() []string
	// decide has person from answer the newest request for approval in channel with choice
	// ("allow", "always" or "deny"), the platform's way: a button, or a typed answer.
	decide(t *testing.T, channel, from, choice string)
	// refusals returns what the platform showed only to the people whose answer to a
	// request for approval was not taken, oldest first.
	refusals() []string
}

// cast is who and where, in a platform's ids: an admin and a colleague who share a group
// channel with the bot, and each one's direct conversation with it.
type cast struct {
	admin, user            string
	group, adminDM, userDM string
}

// said is one message a person posts.
type said struct {
	channel, from, text string
	// mention addresses the bot the platform's way (Slack and Discord mentions, Telegram's
	// @name); in DMs and the terminal every message addresses it.
	mention bool
	file    *sentFile
}

// addressed is the message's text as the person types it: after mention (the platform's way
// of addressing the bot) when the message addresses the bot.
func (m said) addressed(mention string) string {
	if m.mention {
		return mention + " " + m.text
	}
	return m.text
}

// sentFile is a file as someone sent it.
type sentFile struct {
	name    string
	content []byte
}

// feature is something a platform may not have.
type feature string

const (
	featurePeople     feature = "several people talking to the bot"
	featureChatter    feature = "messages that do not address the bot"
	featureDMs        feature = "direct messages, and a policy of who may send them"
	featureFilesIn    feature = "people sending files"
	featureConnection feature = "a connection that can drop"
	featureSilent     feature = "taking an answer back"
	featureEdits      feature = "changing what the bot posted"
	featureDowntime   feature = "people writing while mom is down"
)

// conformer names a platform and makes a fresh fake world for one behaviour.
type conformer struct {
	name string
	make func(t *testing.T) platform
}

// platforms lists every adapter the suite runs against.
func platforms() []conformer {
	return []conformer{
		{"terminal", newTerminalPlatform},
		{"slack", newSlackPlatform},
		{"discord", newDiscordPlatform},
		{"telegram", newTelegramPlatform},
		{"web", newWebPlatform},
	}
}

// behaviour is one row of the suite.
type behaviour struct {
	name string
	// needs names the features the row depends on; a platform that lacks one skips the row.
	needs []feature
	run   func(s *suite)
}

func TestConformance(t *testing.T) {
	for _, c := range platforms() {
		t.Run(c.name, func(t *testing.T) {
			for _, b := range behaviours() {
				t.Run(b.name, func(t *testing.T) {
					pf := c.make(t)
					for _, f := range b.needs {
						if why := pf.lacks(f); why != "" {
							t.Skip(why)
						}
					}
					b.run(&suite{chatWorld: newChatWorld(t, "chat", c.name, pf), t: t, c: pf.cast()})
				})
			}
		})
	}
}

// suite is one behaviour's world: a data directory whose only adapter, "chat", is the
// platform under test.
type suite struct {
	*chatWorld
	t *testing.T
	c cast
}

// run writes the config with the given extra adapter settings, starts mom and waits until it
// is connected.
func (s *suite) run(settings string) {
	s.t.Helper()
	s.configure(settings)
	s.chatWorld.run()
}

// mention has a person address the bot in a channel.
func (s *suite) mention(channel, from, text string) {
	s.t.Helper()
	s.pf.say(s.t, said{channel: channel, from: from, text: text, mention: true})
}

// botSays waits until the bot shows want in channel, and returns the message holding it.
func (s *suite) botSays(channel, want string) string {
	s.t.Helper()
	return apptest.AwaitMessage(s.t, apptest.Eventually, fmt.Sprintf("the bot to show %q in %s", want, channel),
		func() []string { return s.pf.shown(channel) },
		func(m string) bool { return strings.Contains(m, want) })
}

// requests returns the model requests so far, failing unless there are want of them.
func (s *suite) requests(want int, why string) []*fakellm.Request {
	s.t.Helper()
	reqs := s.llm.Requests()
	if len(reqs) != want {
		s.t.Fatalf("%d model requests, want %d: %s", len(reqs), want, why)
	}
	return reqs
}

// log returns a channel's log.jsonl lines.
func (s *suite) log(channel string) []map[string]any {
	return apptest.JSONLines(s.t, filepath.Join(s.channelDir("chat", channel), "log.jsonl"))
}

func behaviours() []behaviour {
	return append([]behaviour{
		{name: "MentionGetsAnAnswerWithItsToolSteps", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Say hi", "command": "echo hi-from-bash"})))
			s.llm.Enqueue(fakellm.Text("Done: said hi"))
			s.run("")
			s.mention(s.c.group, s.c.admin, "please greet everyone")
			s.botSays(s.c.group, "Done: said hi")
			s.botSays(s.c.group, "Say hi") // the tool step, in progress or details
			prompt := s.llm.Requests()[0].LastUserText()
			if !strings.Contains(prompt, "please greet everyone") {
				s.t.Errorf("the model saw %q", prompt)
			}
			s.stop()
			s.requests(2, "one tool call and the answer")
			lines := s.log(s.c.group)
			if len(lines) != 2 || lines[1]["sender"].(map[string]any)["isBot"] != true {
				s.t.Errorf("log.jsonl = %v; want the mention and mom's answer", lines)
			}
		}},
		{name: "ChatterIsLoggedNotRun", needs: []feature{featurePeople, featureChatter}, run: func(s *suite) {
			s.run("")
			s.pf.say(s.t, said{channel: s.c.group, from: s.c.user, text: "lunch at noon?"})
			s.llm.Enqueue(fakellm.Text("Noted."))
			s.mention(s.c.group, s.c.admin, "what did bea say?")
			s.botSays(s.c.group, "Noted.")
			if prompt := s.llm.Requests()[0].LastUserText(); !strings.Contains(prompt, "lunch at noon?") {
				s.t.Errorf("the channel's chatter did not reach the context:\n%s", prompt)
			}
			s.stop()
			s.requests(1, "only the mention may run")
		}},
		{name: "DMRefusedByPolicyOnceAdminAllowed", needs: []feature{featurePeople, featureDMs}, run: func(s *suite) {
			s.run(`"dm": "none"`)
			s.pf.say(s.t, said{channel: s.c.userDM, from: s.c.user, text: "hi mom"})
			s.botSays(s.c.userDM, "only take direct messages")
			s.pf.say(s.t, said{channel: s.c.userDM, from: s.c.user, text: "hello?"})
			s.llm.Enqueue(fakellm.Text("Hi boss."))
			s.pf.say(s.t, said{channel: s.c.adminDM, from: s.c.admin, text: "hi"})
			s.botSays(s.c.adminDM, "Hi boss.")
			s.stop()
			if n := len(s.pf.shown(s.c.userDM)); n != 1 {
				s.t.Errorf("the refused person was answered %d times; want one refusal", n)
			}
			s.requests(1, "only the admin's DM may reach the model")
			if lines := s.log(s.c.userDM); len(lines) != 2 {
				s.t.Errorf("refused DMs must still be logged: %v", lines)
			}
		}},
		{name: "DMAllowedForEveryone", needs: []feature{featurePeople, featureDMs}, run: func(s *suite) {
			s.llm.Enqueue(fakellm.Text("Hello there."))
			s.run(`"dm": "everyone"`)
			s.pf.say(s.t, said{channel: s.c.userDM, from: s.c.user, text: "hi mom"})
			s.botSays(s.c.userDM, "Hello there.")
			s.stop()
		}},
		{name: "GroupRefusedByPolicyOnceAdminAllowed", needs: []feature{featurePeople}, run: func(s *suite) {
			s.llm.Enqueue(fakellm.Text("At your service."))
			s.run(`"groups": "none"`)
			s.mention(s.c.group, s.c.user, "run this for me")
			s.botSays(s.c.group, "I don't take requests in this")
			s.mention(s.c.group, s.c.user, "please?")
			s.mention(s.c.group, s.c.admin, "and for me?")
			s.botSays(s.c.group, "At your service.")
			s.stop()
			s.requests(1, "only the admin's mention may reach the model")
			notices := 0
			for _, m := range s.pf.shown(s.c.group) {
				if strings.Contains(m, "I don't take requests in this") {
					notices++
					if !strings.Contains(m, "groups") || !strings.Contains(m, "config.json") {
						s.t.Errorf("the notice does not say which setting allows the group: %q", m)
					}
				}
			}
			if notices != 1 {
				s.t.Errorf("the group was told %d times, want once", notices)
			}
		}},
		{name: "StopByAnotherPersonIsRefused", needs: []feature{featurePeople}, run: func(s *suite) {
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Wait a long time", "command": "sleep 120"})))
			s.run("")
			s.mention(s.c.group, s.c.admin, "wait for me")
			s.botSays(s.c.group, "Wait a long time")
			s.mention(s.c.group, s.c.user, "stop")
			s.botSays(s.c.group, "who asked for this run, or an admin can stop it")
			s.mention(s.c.group, s.c.admin, "stop")
			s.botSays(s.c.group, "Stopped.")
			s.stop()
		}},
		{name: "StopEndsALongTool", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Wait a long time", "command": "sleep 120"})))
			s.run("")
			s.mention(s.c.group, s.c.admin, "wait for me")
			s.botSays(s.c.group, "Wait a long time")
			s.mention(s.c.group, s.c.admin, "stop")
			s.botSays(s.c.group, "Stopped.")
			s.stop()
		}},
		{name: "BusyQueueRunsTheNextMessageAfter", run: func(s *suite) {
			hold := make(chan struct{})
			s.llm.Enqueue(fakellm.Reply{Text: "first answer", Hold: hold})
			s.llm.Enqueue(fakellm.Text("second answer"))
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "one")
			s.waitRequests(1)
			s.mention(s.c.group, s.c.admin, "two")
			s.botSays(s.c.group, "Queued")
			close(hold)
			s.botSays(s.c.group, "first answer")
			s.botSays(s.c.group, "second answer")
			s.stop()
			if got := s.requests(2, "each message runs once")[1].LastUserText(); !strings.HasSuffix(got, "two") {
				s.t.Errorf("the queued run answered %q", got)
			}
		}},
		{name: "BusyRejectAnswersAlreadyWorkingAndKeepsTheMessage", run: func(s *suite) {
			g := apptest.NewGate(s.t)
			s.llm.Enqueue(
				fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Work", "command": g.Command()})),
				fakellm.Text("first answer"),
				fakellm.Text("third answer"),
			)
			s.run(`"busy": "reject"`) // the default, except in the web chat
			s.mention(s.c.group, s.c.admin, "one")
			g.WaitStarted()
			s.mention(s.c.group, s.c.admin, "two while busy")
			s.botSays(s.c.group, "Already working")
			g.Release()
			s.botSays(s.c.group, "first answer")
			s.p.waitOutput(s.p.err, "log", "run finished", 1) // else "three" would be turned away too
			s.mention(s.c.group, s.c.admin, "three")
			s.botSays(s.c.group, "third answer")
			s.stop()
			reqs := s.requests(3, "the turned-away message must not start a run")
			if strings.Contains(allText(reqs[1]), "two while busy") {
				s.t.Errorf("the turned-away message reached the run it interrupted:\n%s", allText(reqs[1]))
			}
			text := allText(reqs[2])
			two, three := strings.Index(text, "two while busy"), strings.LastIndex(text, "three")
			if two < 0 || three < two || strings.Count(text, "two while busy") != 1 {
				s.t.Errorf("the turned-away message must reach the next run once, before its trigger:\n%s", text)
			}
			logged := 0
			for _, l := range s.log(s.c.group) {
				if strings.Contains(fmt.Sprint(l["text"]), "two while busy") {
					logged++
				}
			}
			if logged != 1 {
				s.t.Errorf("the turned-away message was logged %d times, want once", logged)
			}
		}},
		{name: "BusySteerReachesTheRunAtItsNextStep", run: func(s *suite) {
			g := apptest.NewGate(s.t)
			never := filepath.Join(s.t.TempDir(), "never")
			s.llm.Enqueue(
				fakellm.Calls(
					fakellm.ToolCall{ID: "toolu_gate", Name: "bash", Args: map[string]any{"label": "Work", "command": g.Command()}},
					fakellm.ToolCall{ID: "toolu_skip", Name: "bash", Args: map[string]any{"label": "More work", "command": "touch " + never}},
				),
				fakellm.Text("changed course"),
			)
			s.run(`"busy": "steer"`)
			s.mention(s.c.group, s.c.admin, "one")
			g.WaitStarted()
			s.mention(s.c.group, s.c.admin, "actually, do something else")
			s.botSays(s.c.group, "Noted")
			g.Release()
			s.botSays(s.c.group, "changed course")
			s.stop()
			reqs := s.requests(2, "steering continues the same run")
			if res, _ := reqs[1].ToolResult("toolu_skip"); !res.IsError || !strings.Contains(res.Text, "Skipped due to queued user message") {
				s.t.Errorf("the call after the steering message = %+v; want it skipped", res)
			}
			if _, err := os.Stat(never); err == nil {
				s.t.Error("the skipped command ran")
			}
			if got := reqs[1].LastUserText(); !strings.Contains(got, "actually, do something else") {
				s.t.Errorf("the run's next step read %q; want the steering message", got)
			}
		}},
		{name: "LongAnswerIsSplitWithNothingLost", run: func(s *suite) {
			answer := apptest.LongAnswer(50_000)
			s.llm.Enqueue(fakellm.Text(answer))
			s.run("")
			s.mention(s.c.group, s.c.admin, "tell me everything")
			lines := strings.Split(strings.TrimSpace(answer), "\n")
			s.botSays(s.c.group, lines[len(lines)-1])
			s.stop()
			parts := s.pf.shown(s.c.group)
			if problem := answerShown(parts, answer); problem != "" {
				s.t.Error(problem)
			}
			for i, p := range parts {
				if max := s.pf.maxText(); max > 0 && len([]rune(p)) > max {
					s.t.Errorf("part %d has %d characters; the platform takes %d", i, len([]rune(p)), max)
				}
				if !s.pf.codeIntact(p) {
					s.t.Errorf("part %d cuts a code block:\n%s", i, p)
				}
			}
		}},
		{name: "FileInIsSavedAndReachesTheModel", needs: []feature{featureFilesIn}, run: func(s *suite) {
			s.run("")
			s.pf.say(s.t, said{channel: s.c.group, from: s.c.admin, text: "summarize this", mention: true,
				file: &sentFile{name: "../../etc/passwd report.txt", content: []byte("quarterly numbers")}})
			prompt := s.waitRequests(1)[0].LastUserText()
			dir := s.channelDir("chat", s.c.group)
			matches, _ := filepath.Glob(filepath.Join(dir, "attachments", "*report.txt"))
			if len(matches) != 1 {
				s.t.Fatalf("attachment not saved safely in %s/attachments: %v", dir, matches)
			}
			if data, _ := os.ReadFile(matches[0]); string(data) != "quarterly numbers" {
				s.t.Errorf("saved %q", data)
			}
			if !strings.Contains(prompt, matches[0]) {
				s.t.Errorf("the prompt does not name the file's path %s:\n%s", matches[0], prompt)
			}
			s.stop()
		}},
		{name: "AttachOutArrives", run: func(s *suite) {
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("write", map[string]any{"label": "Write", "path": "out/summary.txt", "content": "all good"})))
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("attach", map[string]any{"label": "Send", "path": "out/summary.txt", "title": "Summary"})))
			s.llm.Enqueue(fakellm.Text("Attached."))
			s.run("")
			s.mention(s.c.group, s.c.admin, "send me a summary")
			s.botSays(s.c.group, "Attached.")
			s.stop()
			ups := s.pf.uploads(s.t, s.c.group)
			if len(ups) != 1 || string(ups[0].content) != "all good" {
				s.t.Errorf("uploads to %s = %+v; want the one summary", s.c.group, ups)
			}
		}},
		{name: "SilentAnswerLeavesNoTrace", needs: []feature{featureSilent}, run: func(s *suite) {
			s.llm.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Check", "command": "true"})))
			s.llm.Enqueue(fakellm.Text("[SILENT]"))
			s.run("")
			s.mention(s.c.group, s.c.admin, "anything new?")
			s.waitRequests(2)
			apptest.Eventually(s.t, "the status message to be taken back", func() bool {
				return s.pf.deleted(s.c.group) > 0 && len(s.pf.shown(s.c.group)) == 0
			})
			s.stop()
			if shown := s.pf.shown(s.c.group); len(shown) > 0 {
				s.t.Errorf("a silent run left %q", shown)
			}
			if log, _ := os.ReadFile(filepath.Join(s.channelDir("chat", s.c.group), "log.jsonl")); strings.Contains(string(log), "[SILENT]") {
				s.t.Errorf("the silent answer is in log.jsonl, where a reload or mom download would show it:\n%s", log)
			}
		}},
		{name: "ConnectionDropMidRunLosesAndDoublesNothing", needs: []feature{featureConnection}, run: func(s *suite) {
			hold := make(chan struct{})
			s.llm.Enqueue(fakellm.Reply{Text: "survived the drop", Hold: hold})
			s.llm.Enqueue(fakellm.Text("second run"))
			// The first run may still be posting its details when its answer shows; queueing
			// keeps the second mention from meeting it as "already working".
			s.run(`"busy": "queue"`)
			s.mention(s.c.group, s.c.admin, "long one")
			s.waitRequests(1)
			s.pf.drop()
			// Chatter where the platform has it; where every message addresses mom (the web
			// chat), this message is the second run's trigger.
			s.pf.say(s.t, said{channel: s.c.group, from: s.c.user, text: "said while the connection was down"})
			close(hold)
			s.botSays(s.c.group, "survived the drop")
			apptest.Eventually(s.t, "mom to reconnect", s.pf.reconnected)
			if s.pf.lacks(featureChatter) == "" {
				s.mention(s.c.group, s.c.admin, "anything I missed?")
			}
			s.botSays(s.c.group, "second run")
			s.stop()
			reqs := s.requests(2, "no run lost or doubled across the drop")
			if prompt := reqs[1].LastUserText(); !strings.Contains(prompt, "said while the connection was down") {
				s.t.Errorf("the message sent during the drop was lost:\n%s", prompt)
			}
			if n := strings.Count(strings.Join(s.pf.shown(s.c.group), "\n"), "survived the drop"); n != 1 {
				s.t.Errorf("the answer given across the drop shows %d times, want once:\n%s", n, s.pf.shown(s.c.group))
			}
			seen := map[string]int{}
			for _, l := range s.log(s.c.group) {
				seen[l["id"].(string)]++
			}
			for id, n := range seen {
				if n > 1 {
					s.t.Errorf("message %s was logged %d times", id, n)
				}
			}
		}},
	}, slices.Concat(approvalBehaviours(), commandBehaviours())...)
}

// balancedFences reports whether text opens and closes its ``` fences in pairs: the check for
// platforms whose messages are markdown-like (Slack mrkdwn, Discord).
func balancedFences(text string) bool { return strings.Count(text, "```")%2 == 0 }

// TestConformanceAnswerCheckCatchesBrokenSplits: the long answer row's check passes the real
// splits of Slack's, Discord's and Telegram's markup, and fails each of them with a part lost,
// shown twice or out of order, or a line shown twice inside a part.
func TestConformanceAnswerCheckCatchesBrokenSplits(t *testing.T) {
	answer := apptest.LongAnswer(50_000)
	for name, parts := range map[string][]string{
		"mrkdwn":   render.Split(slackadapter.Mrkdwn(answer, nil), slackadapter.MaxText),
		"discord":  render.Split(discordadapter.Markdown(answer, nil), discordadapter.MaxText),
		"telegram": tgadapter.SplitHTML(tgadapter.HTML(answer, nil), tgadapter.MaxText),
	} {
		t.Run(name, func(t *testing.T) {
			if len(parts) < 4 {
				t.Fatalf("the answer was split into %d parts; the check needs at least 4", len(parts))
			}
			parts[0] += "\n\n_(continued in the thread)_"
			if problem := answerShown(parts, answer); problem != "" {
				t.Fatalf("a whole split fails the check: %s", problem)
			}
			lines := strings.Split(parts[2], "\n")
			for broken, shown := range map[string][]string{
				"a part lost":         slices.Delete(slices.Clone(parts), 2, 3),
				"the last part lost":  parts[:len(parts)-1],
				"a part shown twice":  slices.Insert(slices.Clone(parts), 3, parts[2]),
				"the last part twice": append(slices.Clone(parts), parts[len(parts)-1]),
				"parts swapped":       append(slices.Clone(parts[:2]), append([]string{parts[3], parts[2]}, parts[4:]...)...),
				"a line shown twice":  append(slices.Clone(parts[:2]), append([]string{parts[2] + "\n" + lines[len(lines)-1]}, parts[3:]...)...),
			} {
				if answerShown(shown, answer) == "" {
					t.Errorf("the check passes %s", broken)
				}
			}
		})
	}
}

// Marks a platform adds to what it shows, which answerShown sees past.
var (
	// splitNote ends the first part of an answer that goes on in more messages.
	splitNote = regexp.MustCompile(`(?m)^[_*]?\(continued (in the thread|below)\)[_*]?$`)
	// fenceLine opens or closes a code block, or closes and reopens one where a split cuts it.
	fenceLine = regexp.MustCompile("(?m)^```.*$")
	// markupTag is Telegram's HTML, as in <pre> and <i>.
	markupTag = regexp.MustCompile(`</?[a-z][^<>]*>`)
	// terminalStyle is the terminal's colours.
	terminalStyle = regexp.MustCompile("\x1b\\[[0-9;]*m")
)

// visibleWords are the words a reader sees in text as a platform shows it: without markup,
// entities decoded, without the notes and fence lines a split adds, and with every run of
// whitespace (which a split may drop or add at a cut) counted as one break.
func visibleWords(text string) []string {
	text = terminalStyle.ReplaceAllString(text, "")
	text = html.UnescapeString(markupTag.ReplaceAllString(text, ""))
	text = splitNote.ReplaceAllString(text, "")
	return strings.Fields(fenceLine.ReplaceAllString(text, ""))
}

// answerShown says what is wrong with how parts (what the platform shows, oldest first) show
// answer, or "" when they show it whole: from the answer's first words to its last, the
// visible words of all parts joined in order must be the answer's, so that a part lost,
// shown twice or out of order fails. What the platform shows before or after the answer
// (a tool step, the usage line) does not count.
func answerShown(parts []string, answer string) string {
	got, want := visibleWords(strings.Join(parts, "\n")), visibleWords(answer)
	k := min(8, len(want))
	start, end := -1, -1
	for i := 0; i+k <= len(got); i++ {
		if slices.Equal(got[i:i+k], want[:k]) {
			if start < 0 {
				start = i
			}
		}
		if slices.Equal(got[i:i+k], want[len(want)-k:]) {
			end = i + k
		}
	}
	switch {
	case start < 0:
		return fmt.Sprintf("the answer's start %q is not shown", strings.Join(want[:k], " "))
	case end < 0:
		return fmt.Sprintf("the answer's end %q is not shown", strings.Join(want[len(want)-k:], " "))
	case end < start+k:
		return "the answer's end is shown before its start"
	}
	got = got[start:end]
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	if i == len(got) && i == len(want) {
		return ""
	}
	around := func(w []string) string { return strings.Join(w[max(0, i-6):min(len(w), i+6)], " ") }
	return fmt.Sprintf("the answer shown (%d words) differs from the answer (%d words) at word %d:\nshown: … %s …\nwant:  … %s …",
		len(got), len(want), i, around(got), around(want))
}
