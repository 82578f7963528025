package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// BenchmarkRestartSoak posts a few hundred mentions over several Slack channels, through the
// Slack fake, while mom is killed with SIGKILL at random moments (mid-run, while starting,
// right after connecting) and started again, down for a random while in between. When the
// last mom has settled it counts what people would see:
//
//   - lost: mentions that never reached log.jsonl;
//   - doubled: mentions answered in more than one message;
//   - unanswered: mentions with neither an answer nor a word on why (given up after two
//     interrupted tries, refused because too many waited);
//   - gaveup, refused: mentions told so (both are by design);
//   - stale: status messages left saying "Thinking…" or "Restarted";
//   - reruns: model runs beyond one per answered mention (runs started again after a kill);
//   - kills, violations: how many times mom was killed; Slack protocol rules broken.
//
// It is not part of the test run: go test -run x -bench Soak ./cmd/mom
func BenchmarkRestartSoak(b *testing.B) {
	for range b.N {
		soak(b, 300)
	}
}

// soak runs one soak of n mentions and reports its counts.
func soak(b *testing.B, n int) {
	s := fakeslack.NewAcme()
	b.Cleanup(s.Close)
	channels := []string{general, adaDM, beaDM}
	for i := range 4 {
		id := fmt.Sprintf("C0SOAK%d", i)
		s.AddChannel(fakeslack.Channel{ID: id, Name: fmt.Sprintf("soak%d", i), Members: []string{adaID, beaID, slackBot}, BotMember: true})
		channels = append(channels, id)
	}
	cw := newChatWorld(b, "chat", "slack", newSlackPlatformOn(s))
	// Restarts in quick succession make edits of one status message from two processes land
	// within a second, which the fake counts against Slack's rate limits: they are reported
	// below, not failed on.
	cw.wrongToken = true
	cw.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "adapters": {"chat": {%s, "admins": [%q], "busy": "queue", "dm": "everyone", "groups": "everyone"}},
}`, cw.llm.URL(), cw.pf.adapter(), adaID))

	var mu sync.Mutex
	runs := map[string]int{}
	cw.llm.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		id := lastQuestion(r)
		mu.Lock()
		runs[id]++
		mu.Unlock()
		// A run takes a few hundred milliseconds, so that kills land in the middle of some.
		return fakellm.Reply{Text: "answer " + id + ".", EventDelay: time.Duration(20+rand.IntN(40)) * time.Millisecond}, true
	})

	// People post at about six mentions a second, whether mom is up or not.
	where := make([]string, n)
	posted := make(chan struct{})
	go func() {
		defer close(posted)
		for i := range n {
			ch := channels[rand.IntN(len(channels))]
			where[i] = ch
			from := beaID
			if ch == adaDM {
				from = adaID
			}
			text := fmt.Sprintf("please answer q-%d", i+1)
			if !strings.HasPrefix(ch, "D") {
				text = "<@" + slackBot + "> " + text
			}
			s.Say(ch, from, text)
			time.Sleep(time.Duration(100+rand.IntN(130)) * time.Millisecond)
		}
	}()

	kills := 0
	var logs strings.Builder // every mom's log, for -v
	for done := false; !done; {
		cw.p = cw.start()
		time.Sleep(time.Duration(200+rand.IntN(3000)) * time.Millisecond)
		_ = cw.p.cmd.Process.Kill()
		cw.p.wait()
		logs.WriteString(cw.p.err.String())
		kills++
		select {
		case <-posted:
			done = true
		default:
			time.Sleep(time.Duration(rand.IntN(1500)) * time.Millisecond) // down for a while
		}
	}

	// The last mom settles: it runs until nothing has changed for a while.
	cw.run()
	answer := regexp.MustCompile(`answer (q-\d+)\.`)
	count := func() (answers map[string]int, total int) {
		answers = map[string]int{}
		for _, ch := range channels {
			for _, m := range cw.pf.shown(ch) {
				for _, id := range answer.FindAllStringSubmatch(m, -1) {
					answers[id[1]]++
				}
				total++
			}
		}
		return answers, total
	}
	_, last := count()
	for quiet := 0; quiet < 20; {
		time.Sleep(250 * time.Millisecond)
		if _, now := count(); now != last {
			last, quiet = now, 0
		} else {
			quiet++
		}
	}
	cw.stop()

	answers, _ := count()
	logged := map[string]bool{}
	for _, ch := range channels {
		for _, line := range apptest.JSONLines(b, filepath.Join(cw.channelDir("chat", ch), "log.jsonl")) {
			if text, _ := line["text"].(string); !strings.HasPrefix(text, "answer") {
				for _, id := range questionID.FindAllString(text, -1) {
					logged[id] = true
				}
			}
		}
	}
	stale := countTold(cw, channels, "Thinking…") + countTold(cw, channels, "Restarted")
	var lost, doubled, unanswered, reruns int
	for i := range n {
		id := fmt.Sprintf("q-%d", i+1)
		switch {
		case !logged[id]:
			lost++
		case answers[id] > 1:
			doubled++
		case answers[id] == 0:
			unanswered++
		}
		if r := runs[id]; r > 1 {
			reruns += r - 1
		}
	}
	if testing.Verbose() {
		for _, line := range strings.Split(logs.String()+cw.p.err.String(), "\n") {
			if strings.Contains(line, "WARN") && !strings.Contains(line, "UNSANDBOXED") {
				b.Log(line)
			}
		}
		for i := range n {
			id := fmt.Sprintf("q-%d", i+1)
			if answers[id] != 1 {
				b.Logf("%s in %s: logged %v, answered %d times, %d runs", id, where[i], logged[id], answers[id], runs[id])
				data, _ := os.ReadFile(filepath.Join(cw.dir, "runs", "chat", where[i]+".jsonl"))
				run := ""
				for _, line := range strings.Split(string(data), "\n") {
					if strings.Contains(line, "answer "+id+`"`) && run == "" {
						if m := regexp.MustCompile(`"run":"([^"]+)"`).FindStringSubmatch(line); m != nil {
							run = m[1]
						}
					}
					if run != "" && strings.Contains(line, `"run":"`+run+`"`) {
						b.Log("   ", line[:min(len(line), 300)])
					}
				}
			}
		}
		for _, ch := range channels {
			for _, m := range cw.pf.shown(ch) {
				if strings.Contains(m, "Thinking…") || strings.Contains(m, "Restarted") || strings.Contains(m, "twice") {
					b.Logf("in %s: %q", ch, m)
				}
			}
		}
	}
	gaveUp, refused := countTold(cw, channels, "interrupted me twice"), countTold(cw, channels, "Too many messages are waiting")
	unanswered -= min(unanswered, gaveUp+refused) // those were told why
	b.ReportMetric(float64(n), "mentions")
	b.ReportMetric(float64(kills), "kills")
	b.ReportMetric(float64(lost), "lost")
	b.ReportMetric(float64(doubled), "doubled")
	b.ReportMetric(float64(unanswered), "unanswered")
	b.ReportMetric(float64(gaveUp), "gaveup")
	b.ReportMetric(float64(refused), "refused")
	b.ReportMetric(float64(stale), "stale")
	b.ReportMetric(float64(reruns), "reruns")
	b.ReportMetric(float64(len(s.Violations())), "violations")
}

// countTold counts the bot's messages in channels that contain s.
func countTold(cw *chatWorld, channels []string, s string) int {
	n := 0
	for _, ch := range channels {
		for _, m := range cw.pf.shown(ch) {
			if strings.Contains(m, s) {
				n++
			}
		}
	}
	return n
}
