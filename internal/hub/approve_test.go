package hub

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/store"
)

// newApprovalRig is a hub with the real agent whose channels ask before every command, with
// the given timeout; boss is the adapter's admin.
func newApprovalRig(t *testing.T, timeout time.Duration) *hubRig {
	t.Helper()
	settings := config.Approvals{Mode: config.ApprovalsAsk, Approvers: config.Approvers{Admins: true}, Timeout: timeout}
	return newAgentHubRigOpts(t, config.AdapterEntry{DM: config.DMPolicy{Everyone: true}, Groups: open, Admins: []string{"boss"}},
		Options{Approvals: func(string, string) config.Approvals { return settings }, Sandbox: config.SandboxHost})
}

// touch is a model reply that runs `touch name` in the scratch directory.
func touch(name string) fakellm.Reply {
	return fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "make " + name, "command": "touch " + name}))
}

// waitAsked waits until the runs have asked n questions.
func (r *hubRig) waitAsked(t *testing.T, n int) []approval.Request {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		r.plat.mu.Lock()
		asked := append([]approval.Request(nil), r.plat.asked...)
		r.plat.mu.Unlock()
		if len(asked) >= n {
			return asked
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d questions asked, want %d", len(asked), n)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func (r *hubRig) scratchHas(t *testing.T, name string) bool {
	t.Helper()
	ch, err := r.store.ChannelDir("plat", "C1")
	if err != nil {
		t.Fatal(err)
	}
	_, err = os.Stat(filepath.Join(ch.Dir(), "scratch", name))
	return err == nil
}

// lastToolResult is the text of the last tool result the model was sent.
func (r *hubRig) lastToolResult() string {
	res := r.llm.LastRequest().ToolResults()
	if len(res) == 0 {
		return ""
	}
	return res[len(res)-1].Text
}

// TestApprovalTimesOutAsNo: nobody answers, so the call does not run, the model hears why,
// and the log says so.
func TestApprovalTimesOutAsNo(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, 20*time.Millisecond)
	r.llm.Enqueue(touch("late.txt"), fakellm.Text("nobody answered"))
	r.receive(t, msg("1", "boss", "make a file", true, false))
	r.idle(t)
	if got := r.lastToolResult(); !strings.Contains(got, "nobody approved it within") {
		t.Errorf("the model heard %q", got)
	}
	if r.scratchHas(t, "late.txt") {
		t.Error("the call ran without a yes")
	}
	if log := strings.Join(r.logTexts(t), "\n"); !strings.Contains(log, "Nobody answered within") {
		t.Errorf("the log does not say the request timed out:\n%s", log)
	}
}

// TestApprovalTypedAnswers: who may not decide is told so and changes nothing; an admin's
// "yes" runs the call; a "no" said in passing by someone else, unaddressed, is chatter.
func TestApprovalTypedAnswers(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, time.Minute)
	r.llm.Enqueue(touch("typed.txt"), fakellm.Text("done"))
	r.receive(t, msg("1", "bea", "make a file", true, false))
	r.waitAsked(t, 1)
	r.receive(t, msg("2", "carl", "no", false, false))   // chatter
	r.receive(t, msg("3", "bea", "yes", true, false))    // the requester, but approvers are admins
	r.receive(t, msg("4", "boss", "Yes!", false, false)) // an admin, in passing
	r.idle(t)
	if !r.scratchHas(t, "typed.txt") {
		t.Fatal("the admin's yes did not run the call")
	}
	posts, _ := r.plat.snapshot()
	if len(posts) != 1 || !strings.Contains(posts[0], "Only an admin can decide this") {
		t.Errorf("notices = %q; want one refusal for bea", posts)
	}
	r.plat.mu.Lock()
	decided := r.plat.decided
	r.plat.mu.Unlock()
	if len(decided) != 1 || decided[0].Decision != approval.Allow || decided[0].By.ID != "boss" {
		t.Errorf("decided = %+v; want boss's allow", decided)
	}
	if n := len(r.llm.Requests()); n != 2 {
		t.Errorf("%d model requests; typed answers must not start runs", n)
	}
}

// TestApprovalStopWhileWaiting: stop ends the wait and the run; the call never runs.
func TestApprovalStopWhileWaiting(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, time.Minute)
	r.llm.Enqueue(touch("stopped.txt"))
	r.receive(t, msg("1", "boss", "make a file", true, false))
	r.waitAsked(t, 1)
	r.receive(t, msg("2", "boss", "stop", true, false))
	r.idle(t)
	if r.scratchHas(t, "stopped.txt") {
		t.Error("the call ran after stop")
	}
	_, ends := r.plat.snapshot()
	if len(ends) != 1 || ends[0].StopReason != "aborted" {
		t.Errorf("runs ended %+v; want one aborted", ends)
	}
	if log := strings.Join(r.logTexts(t), "\n"); !strings.Contains(log, "Stopped while waiting") {
		t.Errorf("the log does not say the request was stopped:\n%s", log)
	}
}

// TestApprovalAnswerToAnotherChannelIsRefused: a tap names the channel it was in; an answer
// from elsewhere, or to a request that is over, changes nothing.
func TestApprovalAnswerToAnotherChannelIsRefused(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, time.Minute)
	r.llm.Enqueue(touch("x.txt"), fakellm.Text("ok"))
	r.receive(t, msg("1", "boss", "make a file", true, false))
	q := r.waitAsked(t, 1)[0]
	boss := chat.User{ID: "boss", Username: "boss"}
	if got := r.hub.Answer(context.Background(), "plat", chat.Answer{Question: q.ID, Choice: approval.Allow, ChannelID: "C2", User: boss}); got == "" {
		t.Error("an answer from another channel was taken")
	}
	if got := r.hub.Answer(context.Background(), "plat", chat.Answer{Question: q.ID, Choice: "maybe", ChannelID: "C1", User: boss}); got == "" {
		t.Error("a choice that is no answer was taken")
	}
	if got := r.hub.Answer(context.Background(), "plat", chat.Answer{Question: q.ID, Choice: approval.Deny, ChannelID: "C1", User: boss}); got != "" {
		t.Fatalf("the admin's deny was refused: %s", got)
	}
	r.idle(t)
	if got := r.hub.Answer(context.Background(), "plat", chat.Answer{Question: q.ID, Choice: approval.Allow, ChannelID: "C1", User: boss}); !strings.Contains(got, "no longer open") {
		t.Errorf("a late answer got %q", got)
	}
	if r.scratchHas(t, "x.txt") {
		t.Error("the denied call ran")
	}
}

// TestApprovalLeftOpenByAKillIsDeniedAtStart: a request a killed mom left waiting is closed
// as denied by the next one: journaled, logged, and never run.
func TestApprovalLeftOpenByAKillIsDeniedAtStart(t *testing.T) {
	t.Parallel()
	r := newApprovalRig(t, time.Minute)
	ch, err := r.store.ChannelDir("plat", "C1")
	if err != nil {
		t.Fatal(err)
	}
	// What a mom killed while it waited leaves behind.
	for _, e := range []store.ApprovalEntry{
		{Type: store.ApprovalAsked, ID: "abc123", Key: "bash rm -rf x", Subject: "rm -rf x", Run: "1"},
		{Type: store.ApprovalPosted, ID: "abc123", Message: "p9", MessageAt: &chat.Place{ChannelID: "C1"}},
	} {
		if err := ch.JournalApproval(e); err != nil {
			t.Fatal(err)
		}
	}
	r.hub.Resume(context.Background(), "plat")
	entries, err := ch.Approvals()
	if err != nil {
		t.Fatal(err)
	}
	last := entries[len(entries)-1]
	if last.Type != store.ApprovalDecided || last.ID != "abc123" || last.Decision != approval.Restart {
		t.Errorf("journal ends with %+v; want the request denied for the restart", last)
	}
	if log := strings.Join(r.logTexts(t), "\n"); !strings.Contains(log, "mom restarted before anyone answered") {
		t.Errorf("the log does not say so:\n%s", log)
	}
	pending, err := r.store.PendingApprovals()
	if err != nil || len(pending) != 0 {
		t.Errorf("pending after start-up = %+v, %v", pending, err)
	}
	// This platform cannot change its messages: the channel hears that the request is over.
	if posts, _ := r.plat.snapshot(); len(posts) != 1 || !strings.Contains(posts[0], "was waiting when mom restarted; it was not run") {
		t.Errorf("notices = %q", posts)
	}
}
