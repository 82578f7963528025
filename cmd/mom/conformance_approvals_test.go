package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/store"
)

// Approvals in the conformance suite: every platform shows a request for approval and takes
// the answer its own way (buttons, or a typed yes/always/no), and the same rules hold on all
// of them.

// asking is the adapter setting that asks before every command, with a few never asked. A
// mention sent as the answer before it appears waits its turn rather than being turned away.
const asking = `"approvals": {"mode": "ask", "allow": ["ls", "echo"]}, "busy": "queue"`

// touchCall is a model reply that makes a file in the channel's scratch directory.
func touchCall(name string) fakellm.Reply {
	return fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make " + name, "command": "touch " + name}))
}

// made reports whether a command of the run made name in the channel's scratch directory.
func (s *suite) made(channel, name string) bool {
	_, err := os.Stat(filepath.Join(s.channelDir("chat", channel), "scratch", name))
	return err == nil
}

// questions counts the requests for approval the bot has shown in channel.
func (s *suite) questions(channel string) int {
	n := 0
	for _, m := range s.pf.shown(channel) {
		n += strings.Count(m, "Approval needed")
	}
	return n
}

// waitJournaled waits until the channel's approval journal holds want.
func (s *suite) waitJournaled(channel, want string) {
	s.t.Helper()
	name, err := store.PathComponent(channel)
	if err != nil {
		s.t.Fatal(err)
	}
	path := filepath.Join(s.dir, "approvals", "chat", name+".jsonl")
	apptest.Eventually(s.t, "the approval journal to note "+want, func() bool {
		b, _ := os.ReadFile(path)
		return strings.Contains(string(b), want)
	})
}

// modelHeard is the last tool result the model was sent.
func (s *suite) modelHeard() string {
	res := s.llm.LastRequest().ToolResults()
	if len(res) == 0 {
		return ""
	}
	return res[len(res)-1].Text
}

func approvalBehaviours() []behaviour {
	return []behaviour{
		{name: "ApprovalAllowRunsTheCommand", run: func(s *suite) {
			s.llm.Enqueue(touchCall("allowed.txt"), fakellm.Text("Made it."))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			q := s.botSays(s.c.group, "Approval needed")
			if !strings.Contains(q, "touch allowed.txt") {
				s.t.Errorf("the request does not show the command:\n%s", q)
			}
			if s.made(s.c.group, "allowed.txt") {
				s.t.Fatal("the command ran before anyone allowed it")
			}
			s.pf.decide(s.t, s.c.group, s.c.admin, "allow")
			s.botSays(s.c.group, "Made it.")
			s.botSays(s.c.group, "Allowed by")
			if !s.made(s.c.group, "allowed.txt") {
				s.t.Error("the allowed command did not run")
			}
			s.stop()
			logged := 0
			for _, l := range s.log(s.c.group) {
				if md, ok := l["metadata"].(map[string]any); ok && md["approval"] != nil {
					logged++
				}
			}
			if logged != 2 {
				s.t.Errorf("%d approval lines in log.jsonl, want the request and the decision", logged)
			}
		}},
		{name: "ApprovalDenyTellsTheModel", run: func(s *suite) {
			s.llm.Enqueue(touchCall("denied.txt"), fakellm.Text("Left it."))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			s.botSays(s.c.group, "Approval needed")
			s.pf.decide(s.t, s.c.group, s.c.admin, "deny")
			s.botSays(s.c.group, "Left it.")
			s.botSays(s.c.group, "Denied by")
			if got := s.modelHeard(); !strings.Contains(got, "denied it") {
				s.t.Errorf("the model heard %q", got)
			}
			if s.made(s.c.group, "denied.txt") {
				s.t.Error("the denied command ran")
			}
			s.stop()
		}},
		{name: "ApprovalAlwaysIsNotAskedAgain", run: func(s *suite) {
			s.llm.Enqueue(touchCall("again.txt"), fakellm.Text("First."), touchCall("again.txt"), fakellm.Text("Second."))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			s.botSays(s.c.group, "Approval needed")
			s.pf.decide(s.t, s.c.group, s.c.admin, "always")
			s.botSays(s.c.group, "First.")
			s.mention(s.c.group, s.c.admin, "once more")
			s.botSays(s.c.group, "Second.")
			if n := s.questions(s.c.group); n != 1 {
				s.t.Errorf("asked %d times; the command allowed always was asked about again", n)
			}
			s.stop()
		}},
		{name: "ApprovalFromSomeoneWhoMayNotDecideIsRefused", needs: []feature{featurePeople}, run: func(s *suite) {
			s.llm.Enqueue(touchCall("guarded.txt"), fakellm.Text("Made it."))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			s.botSays(s.c.group, "Approval needed")
			s.pf.decide(s.t, s.c.group, s.c.user, "allow")
			apptest.Eventually(s.t, "the refusal", func() bool {
				r := s.pf.refusals()
				return len(r) == 1 && strings.Contains(r[0], "Only an admin can decide this")
			})
			if s.made(s.c.group, "guarded.txt") {
				s.t.Fatal("an answer from someone who may not decide ran the command")
			}
			s.pf.decide(s.t, s.c.group, s.c.admin, "allow")
			s.botSays(s.c.group, "Made it.")
			s.stop()
		}},
		{name: "ApprovalStopWhileWaiting", run: func(s *suite) {
			s.llm.Enqueue(touchCall("never.txt"))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			s.botSays(s.c.group, "Approval needed")
			s.mention(s.c.group, s.c.admin, "stop")
			s.botSays(s.c.group, "Stopped while waiting")
			s.botSays(s.c.group, "Stopped.")
			s.stop()
			if s.made(s.c.group, "never.txt") {
				s.t.Error("the command ran after stop")
			}
		}},
		{name: "ApprovalPipelineWithOneCommandOffTheAllowList", run: func(s *suite) {
			s.llm.Enqueue(
				fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "List", "command": "ls | echo listed"})),
				fakellm.Text("Listed."),
				fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "List and remove", "command": "ls | rm -f nothing"})),
				fakellm.Text("Not removed."),
			)
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "list")
			s.botSays(s.c.group, "Listed.")
			if n := s.questions(s.c.group); n != 0 {
				s.t.Fatalf("asked about a pipeline of allowed commands")
			}
			s.mention(s.c.group, s.c.admin, "list and remove")
			s.botSays(s.c.group, "Approval needed")
			s.pf.decide(s.t, s.c.group, s.c.admin, "deny")
			s.botSays(s.c.group, "Not removed.")
			s.stop()
		}},
		{name: "ApprovalLeftWaitingByARestartIsNeverRun", run: func(s *suite) {
			s.llm.Enqueue(touchCall("before.txt"), touchCall("after.txt"), fakellm.Text("Asked again."))
			s.run(asking)
			s.mention(s.c.group, s.c.admin, "make a file")
			s.botSays(s.c.group, "Approval needed")
			if s.pf.lacks(featureEdits) == "" {
				s.waitJournaled(s.c.group, `"type":"posted"`) // where the request is, for the next mom
			}
			s.p.cmd.Process.Signal(syscall.SIGKILL)
			s.p.wait()
			s.chatWorld.run()
			// The run is started again and asks again; the first request stays unanswered.
			s.botSays(s.c.group, "touch after.txt")
			if s.made(s.c.group, "before.txt") {
				s.t.Fatal("the request a restart interrupted was run")
			}
			s.pf.decide(s.t, s.c.group, s.c.admin, "deny")
			s.botSays(s.c.group, "Asked again.")
			s.stop()
			if s.made(s.c.group, "before.txt") || s.made(s.c.group, "after.txt") {
				s.t.Error("a denied or interrupted command ran")
			}
			log := ""
			for _, l := range s.log(s.c.group) {
				log += l["text"].(string) + "\n"
			}
			if !strings.Contains(log, "mom restarted before anyone answered") {
				s.t.Errorf("log.jsonl does not close the interrupted request:\n%s", log)
			}
			if s.pf.lacks(featureEdits) == "" && !slices.ContainsFunc(s.pf.shown(s.c.group), func(m string) bool {
				return strings.Contains(m, "touch before.txt") && strings.Contains(m, "mom restarted before anyone answered")
			}) {
				s.t.Errorf("the interrupted request was not settled where it was asked:\n%s", strings.Join(s.pf.shown(s.c.group), "\n---\n"))
			}
		}},
	}
}
