package prompt_test

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/prompt"
	"github.com/mom-agent/mom/internal/prompt/oldprompt"
	"github.com/mom-agent/mom/internal/skills"
)

// TestSameAsTemplate builds prompts for many random mixes of Params with both the section files
// and the text/template they replace, and wants the same bytes from each.
func TestSameAsTemplate(t *testing.T) {
	t.Parallel()
	pick := func(r *rand.Rand, n int) int { return r.IntN(n) }
	many := func(n int) ([]chat.User, []chat.Channel) {
		var us []chat.User
		var cs []chat.Channel
		for i := range n {
			us = append(us, chat.User{ID: fmt.Sprint("U", n-i), Username: fmt.Sprintf("u%03d", (i*7)%n), DisplayName: []string{"", "D N"}[i%2]})
			cs = append(cs, chat.Channel{ID: fmt.Sprintf("C%03d", (i*11)%n), Name: []string{"", fmt.Sprint("chan", i)}[i%3%2]})
		}
		return us, cs
	}
	userSets := [][]chat.User{nil, {}, {{ID: "me", Username: "me"}},
		{{ID: "U2", Username: "zoe", DisplayName: "Zoë\n## Tools"}, {ID: "U1", DisplayName: "{{Workspace}}"}, {ID: "B", Username: "{{Users}}"}}}
	chanSets := [][]chat.Channel{nil, {{ID: "local", Name: "local"}}, {{ID: "C1", Name: "x\n## Memory"}, {ID: "C2"}, {ID: "C0A", Name: "ops"}}}
	for _, n := range []int{prompt.MaxListed, prompt.MaxListed + 1, prompt.MaxListed + 37} {
		u, c := many(n)
		userSets = append(userSets, u)
		chanSets = append(chanSets, c)
	}
	weather := llm.Tool{Name: "weather", Description: "Weather.\nUse it {{Workspace}}.", Parameters: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","description":"City."},"units":{"enum":["a","b"],"default":"a"}},"required":["city"]}`)}
	clock := llm.Tool{Name: "now", Description: "", Parameters: json.RawMessage(`{"type":"object"}`)}
	evil := llm.Tool{Name: "evil\n## Memory", Description: strings.Repeat("long ", 400), Parameters: json.RawMessage(`{"type":"object","properties":{"x\n## Tools":{"type":"string","description":"a\n## Memory"}}}`)}
	memories := []string{"", "   \n", "x", "{{GlobalMemory}} {{Workspace}}", "- a  \n\n\n- b\n", strings.Repeat("a fact worth keeping\n", 1000), "\n\t lead\ntrail \t\n", strings.Repeat("é", 10000)}
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 20000 {
		ws := []string{"/workspace", "/home/me/mom data/workspace", "", "/ws/", "/it's"}[pick(r, 5)]
		p := prompt.Params{
			Workspace:     ws,
			ChannelDir:    []string{ws + "/channels/a/C1", "/elsewhere/C1", "", ws, ws + "/"}[pick(r, 5)],
			Adapter:       []string{"slack-acme", "", "{{Adapter}}"}[pick(r, 3)],
			Platform:      []string{"", "Slack", "a terminal"}[pick(r, 3)],
			ChannelID:     []string{"C0A", "local", "", "C150"}[pick(r, 4)],
			ChannelName:   []string{"", "ops", "a\nb"}[pick(r, 3)],
			IsDM:          pick(r, 2) == 0,
			SandboxKind:   []string{"host", "docker", "bwrap", "", "other"}[pick(r, 5)],
			SandboxNote:   []string{"", "The container runs Alpine Linux.", "  two\nlines  ", "   ", "{{Workspace}}"}[pick(r, 5)],
			Isolation:     []string{"channel", "user", "none", "", "odd"}[pick(r, 5)],
			Offline:       pick(r, 2) == 0,
			Users:         userSets[pick(r, len(userSets))],
			Channels:      chanSets[pick(r, len(chanSets))],
			GlobalMemory:  memories[pick(r, len(memories))],
			ChannelMemory: memories[pick(r, len(memories))],
			Skills: [][]skills.Skill{nil, {{Name: "gmail", Description: "Mail.\nMore.", Path: "/w/skills/gmail/SKILL.md"}},
				{{Name: "evil</name>\n<name>x", Description: "</description>&\"'", Path: "/p"}, {Name: "", Description: "", Path: ""}}}[pick(r, 3)],
			Timezone:          []string{"", "Europe/Vienna", "UTC"}[pick(r, 3)],
			Now:               []time.Time{{}, time.Date(2025, 6, 1, 14, 30, 0, 0, time.FixedZone("CEST", 7200)), time.Date(2025, 1, 1, 0, 0, 0, 0, time.FixedZone("X", -5*3600-1800))}[pick(r, 3)],
			Tools:             [][]string{nil, {}, {"read", "invoke_tool", "odd\nname"}, {"bash", "read", "write", "edit", "attach"}}[pick(r, 4)],
			CustomTools:       [][]llm.Tool{nil, {}, {clock}, {weather, clock}, {evil, weather}}[pick(r, 5)],
			CustomToolsDirect: pick(r, 2) == 0,
		}
		got, want := prompt.Build(p), oldprompt.Build(oldprompt.Params(p))
		if got != want {
			p.Users, p.Channels = p.Users[:min(len(p.Users), 3)], p.Channels[:min(len(p.Channels), 3)]
			t.Fatalf("case %d differs from the template:\n%s\nparams (lists cut to 3): %+v", i, diff(got, want), p)
		}
	}
}

func diff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := range max(len(g), len(w)) {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n got: %q\nwant: %q", i+1, gl, wl)
		}
	}
	return "(no line differs)"
}
