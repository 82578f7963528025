package slack_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The directory of people and channels, as the system prompt shows it: read whole at start-up
// and kept current from the workspace's events.

// promptSays checks that a system prompt lists every one of want and none of unwanted.
func promptSays(t *testing.T, which, prompt string, want, unwanted []string) {
	t.Helper()
	var wrong []string
	for _, w := range want {
		if !strings.Contains(prompt, w) {
			wrong = append(wrong, fmt.Sprintf("does not list %q", w))
		}
	}
	for _, u := range unwanted {
		if strings.Contains(prompt, u) {
			wrong = append(wrong, fmt.Sprintf("still lists %q", u))
		}
	}
	if wrong != nil {
		t.Errorf("the %s system prompt %s; the prompt:\n%s", which, strings.Join(wrong, ", "), prompt)
	}
}

// TestSlackDirectoryFollowsWorkspaceChanges: a renamed person, a new member, a renamed,
// created, joined, archived or unarchived channel reach mom while it runs: the next run's
// system prompt lists people and channels as they are now (the bot's channels only: one it
// was not invited to is not listed), and messages are logged under people's new names.
func TestSlackDirectoryFollowsWorkspaceChanges(t *testing.T) {
	t.Parallel()
	const (
		random = "C0RANDOM"
		launch = "C0LAUNCH"
		ops    = "C0OPS"
		cydID  = "U0CYD"
	)
	sw := newSlackWorld(t, "")
	sw.slack.AddChannel(fakeslack.Channel{ID: random, Name: "random", Members: []string{adaID}, BotMember: true})
	mark := sw.run()
	sw.LLM.Enqueue(fakellm.Text("before"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> who is here?")
	sw.botSays(general, "", "before")
	sw.waitLogged(mark, "run finished", 1) // a mention while mom is busy would be turned away
	promptSays(t, "first", sw.WaitRequests(1)[0].System,
		[]string{"@bea\t", "#DM:bea\t" + beaDM, "#general\t" + general, "#random\t" + random}, []string{"@cyd", "#ops"})

	sw.slack.RenameUser(beaID, "beatrix")
	sw.slack.JoinTeam(fakeslack.User{ID: cydID, Name: "cyd", RealName: "Cyd Vance"})
	sw.slack.RenameChannel(general, "town-square")
	sw.slack.CreateChannel(launch, "launch", adaID)
	sw.slack.CreateChannel(ops, "ops", adaID)
	sw.slack.JoinBot(ops)
	sw.slack.ArchiveChannel(random, adaID)
	sw.slack.Say(general, cydID, "hi all, I am new")
	sw.LLM.Enqueue(fakellm.Text("after"))
	sw.slack.Say(general, beaID, "<@"+slackBot+"> and now?")
	sw.botSays(general, "", "after")
	sw.waitLogged(mark, "run finished", 2)
	promptSays(t, "second", sw.WaitRequests(2)[1].System,
		[]string{"@beatrix\tbeatrix", "@cyd\tCyd Vance", "#town-square\t" + general, "#ops\t" + ops, "#DM:beatrix\t" + beaDM},
		[]string{"@bea\t", "DM:bea\t", "#general", "#random", "#launch"})

	sw.slack.UnarchiveChannel(random, adaID)
	sw.LLM.Enqueue(fakellm.Text("again"))
	sw.slack.Say(general, adaID, "<@"+slackBot+"> and the old room?")
	sw.botSays(general, "", "again")
	promptSays(t, "third", sw.WaitRequests(3)[2].System, []string{"#random\t" + random}, []string{"#launch"})
	sw.Stop()

	lines := apptest.JSONLines(t, filepath.Join(sw.ChannelDir("acme", general), "log.jsonl"))
	senders := map[string]string{}
	for _, l := range lines {
		s := l["sender"].(map[string]any)
		senders[l["text"].(string)] = s["username"].(string)
	}
	if senders["hi all, I am new"] != "cyd" || senders["and now?"] != "beatrix" {
		t.Errorf("log.jsonl senders by text: %v; want cyd and beatrix", senders)
	}
}

// TestSlackStartUpReadsEveryPage: when Slack hands out users and channels a few per page, mom
// reads every page before it starts, so the first run knows everyone.
func TestSlackStartUpReadsEveryPage(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "", fakeslack.WithPageSize(2))
	var want []string
	for i := range 5 {
		id, name := fmt.Sprintf("U0P%d", i), fmt.Sprintf("person%d", i)
		sw.slack.AddUser(fakeslack.User{ID: id, Name: name, RealName: "Person " + name})
		want = append(want, "@"+name+"\t")
		cid, cname := fmt.Sprintf("C0P%d", i), fmt.Sprintf("room%d", i)
		sw.slack.AddChannel(fakeslack.Channel{ID: cid, Name: cname, Members: []string{adaID}, BotMember: true})
		want = append(want, "#"+cname+"\t"+cid)
	}
	want = append(want, "@ada\t", "@bea\t", "#general\t"+general)
	sw.LLM.Enqueue(fakellm.Text("hello everyone"))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> who is here?")
	sw.botSays(general, "", "hello everyone")
	promptSays(t, "first", sw.WaitRequests(1)[0].System, want, nil)
	for _, method := range []string{"users.list", "conversations.list"} {
		if n := len(sw.slack.Calls(method)); n < 3 {
			t.Errorf("%d %s calls; the workspace needs at least 3 pages of 2", n, method)
		}
	}
	sw.Stop()
}
