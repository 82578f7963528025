package main

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// The scale benchmarks check DESIGN.md §9's memory and concurrency targets against the real
// binary: idle memory with three platforms connected, and a thousand channels answered at
// once. Run them without -race:
//
//	go test -run x -bench 'IdleThreeAdapters|ThousandChannels' -benchtime 3x ./cmd/mom

// idlePeriod is how long mom is left alone before its memory is read, so that start-up's
// garbage is collected and what remains is what an idle mom holds.
const idlePeriod = time.Second

// settledLine is what mom logs (at debug level) when it has given back what starting took,
// the first quiet moment after start (releaseWhenIdle); an idle mom is measured after it.
const settledLine = "gave memory back to the system"

// BenchmarkIdleThreeAdapters starts mom with a Slack, a Discord and a Telegram adapter, each
// against its loopback fake, and no terminal. It measures the time until mom reports that it
// is running and, after it has idled, its resident memory: all of it (rss-MB), the heap and
// stacks (anon-MB) and the mapped binary and libraries (file-MB).
func BenchmarkIdleThreeAdapters(b *testing.B) {
	w, chats := newThreeAdapterWorld(b)
	measureIdle(b, w, func() {
		for _, cw := range chats {
			cw.pf.started(b, nil)
		}
	})
}

// BenchmarkIdleWeb is BenchmarkIdleThreeAdapters with only the web chat: what mom holds when
// it is started the way the quick start starts it, less the terminal.
func BenchmarkIdleWeb(b *testing.B) {
	ww := newWebWorld(b, "", "")
	measureIdle(b, ww.world, func() {})
}

// measureIdle starts mom in w b.N times, timing each start until mom says it is running; then,
// once connected has returned, mom has given back what starting took (settledLine) and has
// idled for idlePeriod more, it reads mom's resident memory. It reports the medians as
// rss-MB, anon-MB and file-MB.
func measureIdle(b *testing.B, w *world, connected func()) {
	var rss, anon, file []int
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(momBinary, "--log-level", "debug", w.dir)
		cmd.Env = w.env
		stderr, err := cmd.StderrPipe()
		if err != nil {
			b.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			b.Fatal(err)
		}
		var log strings.Builder
		sc := bufio.NewScanner(stderr)
		running := false
		for !running && sc.Scan() {
			log.WriteString(sc.Text() + "\n")
			running = strings.Contains(sc.Text(), "mom is running")
		}
		b.StopTimer()
		if !running {
			cmd.Wait()
			b.Fatalf("mom never said it was running:\n%s", log.String())
		}
		settled := make(chan struct{})
		go func() {
			seen := false
			for sc.Scan() {
				if !seen && strings.Contains(sc.Text(), settledLine) {
					seen = true
					close(settled)
				}
			}
		}()
		connected()
		select {
		case <-settled:
		case <-time.After(time.Minute):
			b.Fatalf("mom never gave back what starting took (%q); the log until it ran:\n%s", settledLine, log.String())
		}
		time.Sleep(idlePeriod)
		st := procStatus(b, cmd.Process.Pid)
		rss, anon, file = append(rss, st["VmRSS"]), append(anon, st["RssAnon"]), append(file, st["RssFile"])
		cmd.Process.Signal(os.Interrupt)
		if err := cmd.Wait(); err != nil {
			b.Errorf("mom did not stop cleanly: %v\n%s", err, log.String())
		}
		b.StartTimer()
	}
	b.StopTimer()
	b.ReportMetric(float64(median(rss))/1024, "rss-MB")
	b.ReportMetric(float64(median(anon))/1024, "anon-MB")
	b.ReportMetric(float64(median(file))/1024, "file-MB")
}

// newThreeAdapterWorld is the world of newSlackWorld with the Discord and Telegram adapters of
// newDiscordWorld and newTelegramWorld added to its config, and no terminal. It returns the
// world and the three chat worlds, whose fakes fail the benchmark at its end if mom broke
// their protocol.
func newThreeAdapterWorld(t testing.TB) (*world, []*chatWorld) {
	t.Helper()
	chats := []*chatWorld{newSlackWorld(t, "").chatWorld, newDiscordWorld(t, "").chatWorld, newTelegramWorld(t, "").chatWorld}
	w := chats[0].world
	entries := make([]string, len(chats))
	for i, cw := range chats {
		entries[i] = fmt.Sprintf(`%q: {%s, "admins": [%q]}`, cw.name, cw.pf.adapter(), cw.pf.cast().admin)
	}
	w.writeConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "apiKey": "test-key", "baseUrl": %q},
  "adapters": {%s},
}`, w.llm.URL(), strings.Join(entries, ", ")))
	return w, chats
}

// loadChannels is how many channels BenchmarkThousandChannels runs at once, and loadTurn how
// long the fake model takes to answer each, so that the turns overlap as they would with a
// real model.
const (
	loadChannels = 1000
	loadTurn     = 500 * time.Millisecond
)

// settleAfterLoad is how long after the last run of BenchmarkThousandChannels its memory is
// read again: DESIGN.md §9 wants it back to its idle size within a minute.
const settleAfterLoad = time.Minute

// BenchmarkThousandChannels has a person mention mom in each of 1,000 Slack channels at once,
// against a fake model that answers each after loadTurn. mom runs at most its default
// maxConcurrentRuns of them at once; the others wait their turn, and those who wait longer
// than a few seconds are told so (told-to-wait counts the channels). Each iteration times how
// long until every run has finished, then checks that every channel shows exactly its own
// answer, once.
// It reports mom's peak resident memory (hwm-MB), its resident memory after an idle period
// (idle-rss-MB) and a minute after the last run (minute-rss-MB, by when mom has given back
// what the load took; minute-anon-MB is the part of it that is heap and stacks rather than
// the mapped binary), its threads, and how many goroutines it has beyond those of a mom that
// just started (extra-goroutines). mom has no goroutine counter; the Go runtime's stack dump
// on SIGQUIT counts them, so nothing is added to mom for this.
func BenchmarkThousandChannels(b *testing.B) {
	var hwm, idleRSS, minuteRSS, minuteAnon, threads, extra, told []int
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		sw := newLoadWorld(b, loadChannels)
		sw.run()
		time.Sleep(idlePeriod)
		base := goroutinesAtExit(b, sw.p)
		p := sw.run()
		b.StartTimer()
		for i := range loadChannels {
			sw.slack.Say(loadChannel(i), adaID, fmt.Sprintf("<@%s> question %04d", slackBot, i))
		}
		p.waitOutput(p.err, "log", "run finished", loadChannels)
		b.StopTimer()
		finished := time.Now()
		time.Sleep(idlePeriod)
		told = append(told, checkEveryChannelAnsweredOnce(b, sw))
		st := procStatus(b, p.cmd.Process.Pid)
		hwm, idleRSS, threads = append(hwm, st["VmHWM"]), append(idleRSS, st["VmRSS"]), append(threads, st["Threads"])
		time.Sleep(time.Until(finished.Add(settleAfterLoad)))
		st = procStatus(b, p.cmd.Process.Pid)
		minuteRSS, minuteAnon = append(minuteRSS, st["VmRSS"]), append(minuteAnon, st["RssAnon"])
		after := goroutinesAtExit(b, p)
		extra = append(extra, after-base)
		// Goroutines that outlive their run would number about one per channel; a few
		// more than at start are pooled connections (to the model, to Slack).
		if after-base >= loadChannels/10 {
			b.Errorf("mom kept %d goroutines after the runs, %d more than after start-up: a leak", after, after-base)
		}
	}
	b.ReportMetric(float64(slices.Max(hwm))/1024, "hwm-MB")
	b.ReportMetric(float64(median(idleRSS))/1024, "idle-rss-MB")
	b.ReportMetric(float64(median(minuteRSS))/1024, "minute-rss-MB")
	b.ReportMetric(float64(median(minuteAnon))/1024, "minute-anon-MB")
	b.ReportMetric(float64(median(threads)), "threads")
	b.ReportMetric(float64(slices.Max(extra)), "extra-goroutines")
	b.ReportMetric(float64(median(told)), "told-to-wait")
}

// newLoadWorld is newSlackWorld with n more channels that ada and mom are in, a model that
// answers "question N" with "answer N", and GOTRACEBACK=all so that SIGQUIT dumps every
// goroutine.
func newLoadWorld(b *testing.B, n int) *slackWorld {
	sw := newSlackWorld(b, "")
	for i := range n {
		sw.slack.AddChannel(fakeslack.Channel{ID: loadChannel(i), Name: fmt.Sprintf("load-%04d", i),
			Members: []string{adaID, slackBot}, BotMember: true})
	}
	sw.llm.Handle(func(r *fakellm.Request) (fakellm.Reply, bool) {
		q := questionRE.FindStringSubmatch(r.LastUserText())
		if q == nil {
			return fakellm.Reply{}, false // a 500 from the fake: that channel goes unanswered
		}
		return fakellm.Reply{Text: "answer " + q[1], Delay: loadTurn}, true
	})
	sw.env = append(slices.Clone(sw.env), "GOTRACEBACK=all")
	return sw
}

var questionRE = regexp.MustCompile(`question (\d{4})`)

// loadChannel is the id of the i-th channel of newLoadWorld.
func loadChannel(i int) string { return fmt.Sprintf("C1%07d", i) }

// checkEveryChannelAnsweredOnce fails unless the model was asked each question exactly once
// and each channel shows one message from mom, at its top level, with its own answer, besides
// at most the notice that the run waits for a free slot. It returns how many channels got
// that notice.
func checkEveryChannelAnsweredOnce(b *testing.B, sw *slackWorld) (told int) {
	b.Helper()
	asked := map[string]int{}
	for _, r := range sw.llm.Requests() {
		q := questionRE.FindStringSubmatch(r.LastUserText())
		if q == nil {
			b.Errorf("the model was asked something that is no channel's question: %q", r.LastUserText())
			continue
		}
		asked[q[1]]++
	}
	bad := 0
	for i := range loadChannels {
		want := fmt.Sprintf("answer %04d", i)
		var shown []string
		notices := 0 // the run waited for one of the maxConcurrentRuns slots
		for _, m := range sw.slack.Messages(loadChannel(i)) {
			switch {
			case m.User != slackBot:
			case strings.HasPrefix(m.Text, waitingNotice):
				notices++
			default:
				shown = append(shown, m.Text)
			}
		}
		if notices > 0 {
			told++
		}
		n := asked[fmt.Sprintf("%04d", i)]
		if n == 1 && len(shown) == 1 && strings.Contains(shown[0], want) && notices <= 1 {
			continue
		}
		if bad++; bad <= 10 {
			b.Errorf("channel %s: the model was asked %d times, and mom shows %q and %d notices that it waits; want %q once",
				loadChannel(i), n, shown, notices, want)
		}
	}
	if bad > 0 {
		b.Fatalf("%d of %d channels were not answered exactly once", bad, loadChannels)
	}
	return told
}

// waitingNotice begins what mom says when a person's run waits for a free slot.
const waitingNotice = "_Busy in other conversations;"

// goroutineHeader starts each goroutine's stack in a Go runtime dump.
var goroutineHeader = regexp.MustCompile(`(?m)^goroutine \d+ \[`)

// goroutinesAtExit ends p with SIGQUIT, on which the Go runtime prints the stack of every
// goroutine (all of them with GOTRACEBACK=all) and exits with status 2, and returns how many
// goroutines the dump shows.
func goroutinesAtExit(b *testing.B, p *proc) int {
	b.Helper()
	before := len(p.err.String())
	if err := p.cmd.Process.Signal(syscall.SIGQUIT); err != nil {
		b.Fatal(err)
	}
	if code := p.wait(); code != 2 {
		b.Fatalf("mom exited %d on SIGQUIT; want the Go runtime's stack dump and 2\n%s", code, p.err)
	}
	return len(goroutineHeader.FindAllString(p.err.String()[before:], -1))
}

// procStatus reads the numbers of /proc/<pid>/status: VmRSS, VmHWM, RssAnon, RssFile (kB),
// Threads and so on.
func procStatus(b *testing.B, pid int) map[string]int {
	b.Helper()
	st, err := readProcStatus(pid)
	if err != nil {
		b.Skipf("no /proc to read memory from: %v", err)
	}
	return st
}

// readProcStatus reads the numbers of a process's /proc status (kB for the memory figures).
func readProcStatus(pid int) (map[string]int, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return nil, err
	}
	out := map[string]int{}
	for line := range strings.Lines(string(data)) {
		key, rest, _ := strings.Cut(line, ":")
		if f := strings.Fields(rest); len(f) > 0 {
			if n, err := strconv.Atoi(f[0]); err == nil {
				out[key] = n
			}
		}
	}
	return out, nil
}
