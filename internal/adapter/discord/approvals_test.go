package discord_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	fakediscord "github.com/mom-agent/mom/internal/fake/discord"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestDiscordApprovalButtons: a command that needs a yes is asked about in the channel with a
// row of buttons; a press by someone who may not decide is refused in a message only she sees
// and changes nothing; the admin's Allow runs it, and the question then says who allowed it,
// without buttons; Deny keeps the next command from running and tells the model. Every press
// gets exactly one response through the interaction's callback.
func TestDiscordApprovalButtons(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.configure(`"approvals": {"mode": "ask"}`)
	dw.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch dc-allowed.txt"})),
		fakellm.Text("made it"),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Clean up", "command": "touch dc-denied.txt"})),
		fakellm.Text("left it"),
	)
	dw.run()
	dw.d.Say(general, adaID, "<@"+bot+"> make a file")

	q := dw.botSays(general, "Approval needed")
	if !strings.Contains(q.Content, "touch dc-allowed.txt") || !strings.Contains(q.Content, "Make a file") {
		t.Errorf("the question does not say what will run:\n%s", q.Content)
	}
	bs := dw.d.Buttons(general, q.ID)
	if len(bs) != 3 || bs[0].Label != "Allow" || bs[0].Style != fakediscord.ButtonSuccess ||
		bs[1].Style != fakediscord.ButtonSecondary || bs[2].Label != "Deny" || bs[2].Style != fakediscord.ButtonDanger {
		t.Fatalf("buttons = %+v; want Allow (success), Allow always (secondary), Deny (danger)", bs)
	}
	if _, err := dw.d.Press(beaID, general, q.ID, choice(t, bs, "allow")); err != nil {
		t.Fatal(err)
	}
	dw.d.WaitFor(t, "bea to be told she may not decide", func() bool {
		in := dw.d.Interactions()
		return len(in) == 1 && len(in[0].Responses) == 1
	})
	if r := dw.d.Interactions()[0].Responses[0]; r.Type != fakediscord.CallbackChannelMessage ||
		r.Flags&fakediscord.FlagEphemeral == 0 || !strings.Contains(r.Content, "Only an admin") {
		t.Errorf("bea's press was answered with %+v; want an ephemeral message saying only an admin decides", r)
	}
	scratch := filepath.Join(dw.ChannelDir("guild", general), "scratch")
	if _, err := os.Stat(filepath.Join(scratch, "dc-allowed.txt")); err == nil {
		t.Fatal("bea's press ran the command")
	}
	if len(dw.d.Buttons(general, q.ID)) != 3 {
		t.Error("bea's press changed the question")
	}

	if _, err := dw.d.Press(adaID, general, q.ID, choice(t, bs, "allow")); err != nil {
		t.Fatal(err)
	}
	dw.botSays(general, "made it")
	if _, err := os.Stat(filepath.Join(scratch, "dc-allowed.txt")); err != nil {
		t.Errorf("the allowed command did not run: %v", err)
	}
	settled := dw.botSays(general, "Allowed by ada")
	if settled.ID != q.ID || len(dw.d.Buttons(general, q.ID)) != 0 {
		t.Errorf("the question was not settled in place without buttons: %+v", settled)
	}

	dw.d.Say(general, adaID, "<@"+bot+"> clean up")
	dw.d.WaitFor(t, "a second question", func() bool { return len(questions(dw, general)) == 2 })
	second := questions(dw, general)[1]
	if _, err := dw.d.Press(adaID, general, second, choice(t, dw.d.Buttons(general, second), "deny")); err != nil {
		t.Fatal(err)
	}
	dw.botSays(general, "left it")
	reqs := dw.WaitRequests(4)
	res := reqs[3].ToolResults()
	if len(res) == 0 || !strings.Contains(res[len(res)-1].Text, "denied it") {
		t.Errorf("the model was not told of the denial: %+v", res)
	}
	if _, err := os.Stat(filepath.Join(scratch, "dc-denied.txt")); err == nil {
		t.Error("the denied command ran")
	}
	dw.botSays(general, "Denied by ada")
	dw.Stop()
	in := dw.d.Interactions()
	if len(in) != 3 {
		t.Fatalf("%d interactions; want bea's and ada's two", len(in))
	}
	for _, i := range in {
		if len(i.Responses) != 1 {
			t.Errorf("interaction %s (%s by %s) got %d responses; Discord wants exactly one", i.ID, i.CustomID, i.UserID, len(i.Responses))
		}
	}
	for _, i := range in[1:] {
		if len(i.Responses) == 1 && i.Responses[0].Type != fakediscord.CallbackDeferredUpdateMessage {
			t.Errorf("ada's taken answer was responded with %+v; want DEFERRED_UPDATE_MESSAGE", i.Responses[0])
		}
	}
}

// TestDiscordApprovalInDM: in a DM the press carries user rather than member.user; the
// admin's "always" there runs the command and the same command later runs unasked.
func TestDiscordApprovalInDM(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.configure(`"approvals": {"mode": "ask"}`)
	touch := fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Make a file", "command": "touch dc-always.txt"}))
	dw.LLM.Enqueue(touch, fakellm.Text("made it"), touch, fakellm.Text("made it again"))
	dw.run()
	dw.d.Say(adaDM, adaID, "make a file")

	q := dw.botSays(adaDM, "Approval needed")
	if _, err := dw.d.Press(adaID, adaDM, q.ID, choice(t, dw.d.Buttons(adaDM, q.ID), "always")); err != nil {
		t.Fatal(err)
	}
	dw.botSays(adaDM, "made it")
	dw.botSays(adaDM, "Allowed always in this channel by ada")
	if bs := dw.d.Buttons(adaDM, q.ID); len(bs) != 0 {
		t.Errorf("the settled question still shows %+v", bs)
	}
	dw.d.Say(adaDM, adaID, "again")
	dw.botSays(adaDM, "made it again")
	if n := len(questions(dw, adaDM)); n != 1 {
		t.Errorf("asked %d times; the command allowed always was asked about again", n)
	}
	if in := dw.d.Interactions(); len(in) != 1 || len(in[0].Responses) != 1 ||
		in[0].Responses[0].Type != fakediscord.CallbackDeferredUpdateMessage {
		t.Errorf("interactions = %+v; want ada's press taken with DEFERRED_UPDATE_MESSAGE", in)
	}
}

// TestDiscordApprovalInThread: a question asked in a thread is answered there; the press
// comes from the thread, and counts for the channel whose log the thread belongs to.
func TestDiscordApprovalInThread(t *testing.T) {
	t.Parallel()
	dw := newDiscordWorld(t)
	dw.configure(`"approvals": {"mode": "ask"}`)
	dw.LLM.Enqueue(fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Clean up", "command": "touch dc-thread.txt"})),
		fakellm.Text("left it"))
	dw.run()
	root := dw.d.Say(general, beaID, "the build is red")
	thread := dw.d.AddChannel(fakediscord.Channel{ID: root, Name: "build", Kind: fakediscord.KindThread, Parent: general})
	dw.d.Say(thread, adaID, "<@"+bot+"> clean up")

	q := dw.botSays(thread, "Approval needed")
	if _, err := dw.d.Press(adaID, thread, q.ID, choice(t, dw.d.Buttons(thread, q.ID), "deny")); err != nil {
		t.Fatal(err)
	}
	dw.botSays(thread, "Denied by ada")
	dw.botSays(thread, "left it")
	if in := dw.d.Interactions(); len(in) != 1 || len(in[0].Responses) != 1 ||
		in[0].Responses[0].Type != fakediscord.CallbackDeferredUpdateMessage {
		t.Errorf("interactions = %+v; want ada's press taken with DEFERRED_UPDATE_MESSAGE", in)
	}
}

// choice is the custom_id of the button among bs whose choice is c.
func choice(t *testing.T, bs []fakediscord.Button, c string) string {
	t.Helper()
	for _, b := range bs {
		if strings.HasSuffix(b.CustomID, ":"+c) {
			return b.CustomID
		}
	}
	t.Fatalf("no %s button among %+v", c, bs)
	return ""
}

// questions returns the ids of the bot's questions in channel, oldest first.
func questions(dw *discordWorld, channel string) []string {
	var ids []string
	for _, m := range dw.d.Messages(channel) {
		if m.Author == bot && strings.Contains(m.Content, "Approval needed") {
			ids = append(ids, m.ID)
		}
	}
	return ids
}
