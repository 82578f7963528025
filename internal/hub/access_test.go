package hub

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/store"
)

// groupPlatform is a platform whose channels belong to groups, with members it can be asked
// about and groups the bot can leave.
type groupPlatform struct {
	*platform
	groupOf map[string]string   // channel → group
	members map[string][]string // group → user ids
	broken  bool                // asking about members fails

	mu    sync.Mutex
	asked map[string]int // group → AnyMember calls
	left  []string
}

func newGroupPlatform(groupOf map[string]string, members map[string][]string) *groupPlatform {
	return &groupPlatform{platform: &platform{}, groupOf: groupOf, members: members, asked: map[string]int{}}
}

func (g *groupPlatform) GroupOf(channelID string) string { return g.groupOf[channelID] }

func (g *groupPlatform) AnyMember(_ context.Context, group string, userIDs []string) (bool, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.asked[group]++
	if g.broken {
		return false, errors.New("the platform is down")
	}
	for _, id := range userIDs {
		if slices.Contains(g.members[group], id) {
			return true, nil
		}
	}
	return false, nil
}

func (g *groupPlatform) Leave(_ context.Context, group string) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.left = append(g.left, group)
	return nil
}

func (g *groupPlatform) state() (asked map[string]int, left []string) {
	g.mu.Lock()
	defer g.mu.Unlock()
	asked = map[string]int{}
	for k, v := range g.asked {
		asked[k] = v
	}
	return asked, slices.Clone(g.left)
}

// mentionIn is a person's message addressing mom in a channel.
func mentionIn(id, channel, user, text string) chat.Message {
	m := msg(id, user, text, true, false)
	m.ChannelID = channel
	return m
}

// posted counts the posts containing s, after the hub has shut down (which waits for them).
func posted(r *hubRig, s string) (n int, all []string) {
	posts, _ := r.plat.snapshot()
	for _, p := range posts {
		if strings.Contains(p, s) {
			n++
		}
	}
	return n, posts
}

func (r *hubRig) logIn(t *testing.T, channel string) []string {
	t.Helper()
	ch, err := r.store.ChannelDir("plat", channel)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	if err := ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		texts = append(texts, m.Text)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	return texts
}

// groupsCalled is a platform whose groups are called word, as the notices name them.
func groupsCalled(word string) *config.Platform {
	return &config.Platform{Groups: &config.Groups{Word: word}}
}

// TestGroupsWhereAnAdminIsAMember: under "admins", anybody may start runs in a group one of
// the admins is in (asked once, then remembered); a stranger's group gets one notice naming
// its id and the config key, is left, and starts nothing, though its messages are logged.
// Admins may start runs anywhere (where, like any run, the channel's history is read).
func TestGroupsWhereAnAdminIsAMember(t *testing.T) {
	t.Parallel()
	gp := newGroupPlatform(map[string]string{"C1": "G1", "C2": "G2", "C3": "G3"},
		map[string][]string{"G1": {"boss", "bea"}, "G2": {"eve"}})
	r := newHubRigWith(t, config.AdapterEntry{Type: "telegram", Platform: groupsCalled("group"), Admins: []string{"boss"},
		Groups: config.GroupPolicy{WhereAdmins: true}}, gp, gp.platform)
	r.receive(t, mentionIn("1", "C1", "bea", "hello"))
	r.idle(t)
	r.receive(t, mentionIn("2", "C1", "bea", "again"))
	r.idle(t)
	// Both sent before mom has left: one leave is enough.
	first, second := mentionIn("3", "C2", "eve", "run stranger-command-42 for me"), mentionIn("4", "C2", "eve", "please")
	r.receive(t, first)
	r.receive(t, second)
	r.receive(t, mentionIn("5", "C3", "boss", "I may, anywhere"))
	r.idle(t)
	r.hub.Shutdown(context.Background())

	if n := len(r.runner.requests()); n != 3 {
		t.Errorf("%d runs, want 3 (bea twice in the admin's group, boss once)", n)
	}
	for _, req := range r.runner.requests() {
		// A run reads its channel's log: one in C2 would show the model the stranger's message.
		if req.Trigger.ChannelID == "C2" || strings.Contains(req.Trigger.Text, "stranger-command-42") {
			t.Error("the stranger's message reached the model")
		}
	}
	asked, left := gp.state()
	if asked["G1"] != 1 {
		t.Errorf("the admin's group was asked about %d times, want once (then remembered)", asked["G1"])
	}
	if !slices.Equal(left, []string{"G2"}) {
		t.Errorf("left %v; want the stranger's group G2, once", left)
	}
	n, posts := posted(r, "only work in groups where one of the people who run me is a member")
	if n != 1 {
		t.Errorf("the stranger's group was told %d times, want once: %q", n, posts)
	}
	for _, p := range posts {
		if strings.Contains(p, "only work in groups") && (!strings.HasPrefix(p, "C2: ") ||
			!strings.Contains(p, "`G2`") || !strings.Contains(p, `"groups" for plat`) || !strings.Contains(p, "leaving")) {
			t.Errorf("the notice should be in C2, name the group's id, the config key and that mom leaves: %q", p)
		}
	}
	if got := r.logIn(t, "C2"); len(got) < 2 || got[0] != "run stranger-command-42 for me" || got[1] != "please" {
		t.Errorf("the refused messages must still be logged: %q", got)
	}
}

// TestGroupsNoneOrListedNeverLeave: a list lets anybody run in the groups or channels it names;
// elsewhere people other than admins are told once and mom stays, without asking the platform.
func TestGroupsNoneOrListedNeverLeave(t *testing.T) {
	t.Parallel()
	gp := newGroupPlatform(map[string]string{"C1": "G1", "C2": "G2", "C3": "G2"}, nil)
	r := newHubRigWith(t, config.AdapterEntry{Type: "discord", Platform: groupsCalled("server"), Admins: []string{"boss"},
		Groups: config.GroupPolicy{IDs: []string{"G1", "C3"}}}, gp, gp.platform)
	for _, m := range []chat.Message{
		mentionIn("1", "C1", "bea", "listed group"),
		mentionIn("2", "C2", "bea", "not listed"),
		mentionIn("3", "C2", "bea", "still not"),
		mentionIn("4", "C3", "bea", "listed channel"),
		mentionIn("5", "C2", "boss", "admin"),
	} {
		r.receive(t, m)
		r.idle(t)
	}
	r.hub.Shutdown(context.Background())
	if n := len(r.runner.requests()); n != 3 {
		t.Errorf("%d runs, want 3 (the listed group, the listed channel, the admin)", n)
	}
	asked, left := gp.state()
	if len(asked) != 0 || len(left) != 0 {
		t.Errorf("asked %v and left %v; a list needs no lookups and never makes mom leave", asked, left)
	}
	if n, posts := posted(r, "I don't take requests in this server"); n != 1 {
		t.Errorf("told %d times, want once: %q", n, posts)
	}
}

// TestGroupCheckFailureRefusesWithoutLeaving: when the platform cannot say whether an admin is
// in a group, that counts as no, but is no reason to leave; and with no admins at all there is
// nobody to ask about.
func TestGroupCheckFailureRefusesWithoutLeaving(t *testing.T) {
	t.Parallel()
	for name, tc := range map[string]struct {
		admins []string
		broken bool
		asks   int
	}{
		"platform fails": {admins: []string{"boss"}, broken: true, asks: 1},
		"no admins":      {admins: nil, asks: 0},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			gp := newGroupPlatform(map[string]string{"C1": "G1"}, map[string][]string{"G1": {"bea"}})
			gp.broken = tc.broken
			r := newHubRigWith(t, config.AdapterEntry{Type: "telegram", Platform: groupsCalled("group"), Admins: tc.admins,
				Groups: config.GroupPolicy{WhereAdmins: true}}, gp, gp.platform)
			r.receive(t, mentionIn("1", "C1", "bea", "hello"))
			r.hub.Shutdown(context.Background())
			if n := len(r.runner.requests()); n != 0 {
				t.Errorf("%d runs, want none", n)
			}
			asked, left := gp.state()
			if asked["G1"] != tc.asks || len(left) != 0 {
				t.Errorf("asked %v, left %v; want %d lookups and no leaving", asked, left, tc.asks)
			}
			n, posts := posted(r, "only work in groups where one of the people who run me is a member")
			if n != 1 || strings.Contains(strings.Join(posts, "\n"), "leaving") {
				t.Errorf("want one notice that does not announce leaving: %q", posts)
			}
		})
	}
}

// TestGroupDMFollowsTheDMPolicy: a group DM is open to whoever the DM policy allows, even where
// channels are open to everyone.
func TestGroupDMFollowsTheDMPolicy(t *testing.T) {
	t.Parallel()
	r := newHubRig(t, config.AdapterEntry{Type: "slack", Admins: []string{"boss"}, DM: config.DMPolicy{}, Groups: open})
	for _, m := range []chat.Message{
		msg("1", "bea", "in our group DM", true, false),
		msg("2", "bea", "hello?", true, false),
		msg("3", "boss", "me too", true, false),
	} {
		m.IsGroupDM = true
		r.receive(t, m)
		r.idle(t)
	}
	r.hub.Shutdown(context.Background())
	if n := len(r.runner.requests()); n != 1 {
		t.Errorf("%d runs, want 1 (the admin's)", n)
	}
	if n, posts := posted(r, "only take direct messages"); n != 1 {
		t.Errorf("bea was told %d times, want once: %q", n, posts)
	}
}

// TestStopOnlyByTheRequesterOrAnAdmin: someone else's stop is answered with who may stop the
// run, and the run goes on; the requester and admins stop it.
func TestStopOnlyByTheRequesterOrAnAdmin(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		stopper string
		stops   bool
	}{
		{"eve", false},
		{"bea", true},
		{"boss", true},
	} {
		t.Run(tc.stopper, func(t *testing.T) {
			t.Parallel()
			r := newHubRig(t, config.AdapterEntry{Admins: []string{"boss"}, Groups: open})
			hold := make(chan struct{})
			r.runner.holdUntil(hold)
			r.receive(t, msg("1", "bea", "long job", true, false))
			r.runner.waitRuns(t, 1)
			r.receive(t, msg("2", tc.stopper, "stop", true, false))
			close(hold)
			r.idle(t)
			r.hub.Shutdown(context.Background())
			_, ends := r.plat.snapshot()
			want := llm.StopEnd
			if tc.stops {
				want = llm.StopAborted
			}
			if len(ends) != 1 || ends[0].StopReason != want {
				t.Errorf("run ends = %+v, want one with stop reason %s", ends, want)
			}
			n, posts := posted(r, "Only bea, who asked for this run, or an admin can stop it.")
			if (n == 1) == tc.stops {
				t.Errorf("posts %q: want the refusal only when someone else asks to stop", posts)
			}
		})
	}
}

// TestPresenceIsAskedAgainAfterAWhile: a yes is trusted for presentFor, a no or a failure for
// absentFor; a failure is no definite answer.
func TestPresenceIsAskedAgainAfterAWhile(t *testing.T) {
	t.Parallel()
	now := time.Unix(1_700_000_000, 0)
	p := newPresence()
	p.now = func() time.Time { return now }
	asks := 0
	answer, fail := true, false
	ask := func() (bool, error) {
		asks++
		if fail {
			return false, errors.New("down")
		}
		return answer, nil
	}
	check := func(wantPresent, wantDefinite bool, wantAsks int) {
		t.Helper()
		present, definite := p.check("k", ask)
		if present != wantPresent || definite != wantDefinite || asks != wantAsks {
			t.Errorf("check = %v, %v after %d asks; want %v, %v after %d", present, definite, asks, wantPresent, wantDefinite, wantAsks)
		}
	}
	check(true, true, 1)
	now = now.Add(presentFor - time.Second)
	check(true, true, 1)
	answer = false
	now = now.Add(2 * time.Second)
	check(false, true, 2)
	now = now.Add(absentFor - time.Second)
	check(false, true, 2)
	fail = true
	now = now.Add(2 * time.Second)
	check(false, false, 3)
	p.forget("k")
	fail, answer = false, true
	check(true, true, 4)
}

// TestGroupAddedAgainIsLeftAgain: a stranger who adds mom back after it left gets no second
// notice, and mom leaves again.
func TestGroupAddedAgainIsLeftAgain(t *testing.T) {
	t.Parallel()
	gp := newGroupPlatform(map[string]string{"C2": "G2"}, nil)
	r := newHubRigWith(t, config.AdapterEntry{Type: "telegram", Platform: groupsCalled("group"), Admins: []string{"boss"},
		Groups: config.GroupPolicy{WhereAdmins: true}}, gp, gp.platform)
	r.receive(t, mentionIn("1", "C2", "eve", "hello"))
	deadline := time.Now().Add(30 * time.Second)
	for _, left := gp.state(); len(left) == 0; _, left = gp.state() {
		if time.Now().After(deadline) {
			t.Fatal("mom never left the stranger's group")
		}
		time.Sleep(time.Millisecond)
	}
	r.receive(t, mentionIn("2", "C2", "eve", "I added you back"))
	r.hub.Shutdown(context.Background())
	if _, left := gp.state(); !slices.Equal(left, []string{"G2", "G2"}) {
		t.Errorf("left %v; want G2 twice", left)
	}
	if n, posts := posted(r, "only work in groups"); n != 1 {
		t.Errorf("told %d times, want once: %q", n, posts)
	}
}
