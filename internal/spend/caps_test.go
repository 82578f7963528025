package spend_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	"github.com/mom-agent/mom/internal/spend"
)

// The spending caps' end-to-end tests run a whole mom in-process (package apptest) with a
// Telegram adapter on the fake Bot API and the fake model, whose answers report the tokens
// the tests choose; the model's price comes from the catalog (claude-sonnet-4-5, $3 a
// million input tokens). They assert what people see in the chat, what the model was asked,
// and what the ledger and context.jsonl hold.

const ada, bea, group = faketg.TeamAda, faketg.TeamBea, faketg.TeamGroup

// capsWorld is a mom whose config.json has the given "limits" and one Telegram adapter,
// "tg", with ada as its admin.
type capsWorld struct {
	*apptest.World
	t  *testing.T
	tg *faketg.Server
}

func newCapsWorld(t *testing.T, limits string) *capsWorld {
	t.Helper()
	tg := faketg.NewTeam()
	t.Cleanup(tg.Close)
	w := &capsWorld{World: apptest.New(t), t: t, tg: tg}
	t.Cleanup(w.Stop)
	w.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": %q, "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "limits": %s,
  "adapters": {"tg": {"type": "telegram", "botToken": %q, "apiUrl": %q, "admins": ["%d"]}},
}`, apptest.APIKey, w.LLM.URL(), limits, tg.Token(), tg.URL(), ada))
	return w
}

// run starts mom and waits until it polls Telegram.
func (w *capsWorld) run() {
	w.t.Helper()
	w.Start()
	w.tg.WaitFor(w.t, "mom to poll for updates", w.tg.Polling)
}

// botSaid counts the bot's messages in the group that hold s.
func (w *capsWorld) botSaid(s string) int {
	n := 0
	for _, m := range w.tg.Messages(group, 0) {
		if m.From == w.tg.Bot().ID && strings.Contains(m.Text, s) {
			n++
		}
	}
	return n
}

// botSays waits until the bot has said s in the group n times.
func (w *capsWorld) botSays(s string, n int) {
	w.t.Helper()
	w.tg.WaitFor(w.t, fmt.Sprintf("the bot to say %q %d times", s, n), func() bool { return w.botSaid(s) >= n })
}

// runsFinished waits until mom has finished n runs since the world began: a message sent
// before would find its channel busy.
func (w *capsWorld) runsFinished(n int) {
	w.t.Helper()
	apptest.Eventually(w.t, fmt.Sprintf("%d runs to finish", n), func() bool { return strings.Count(w.Log(), `msg="run finished"`) >= n })
}

// costs is an answer's usage costing v dollars: input tokens of claude-sonnet-4-5.
func costs(v float64) *fakellm.Usage {
	return &fakellm.Usage{Input: int(math.Round(v * 1_000_000 / 3))}
}

// says is a text answer costing v dollars.
func says(text string, v float64) fakellm.Reply { return fakellm.Reply{Text: text, Usage: costs(v)} }

// runs is an answer costing v dollars that runs command.
func runs(command string, v float64) fakellm.Reply {
	return fakellm.Reply{ToolCalls: []fakellm.ToolCall{fakellm.Call("bash", map[string]any{"label": "Work", "command": command})}, Usage: costs(v)}
}

// TestCapStopsTheNextCall: a run whose model call takes the day past its cap finishes that
// call and the tool it asked for, and its next call is refused, with the message in the chat,
// a log line and the admins told; after a restart the cap still holds, and no call reaches the
// model. The ledger's sums are the usage lines of context.jsonl.
func TestCapStopsTheNextCall(t *testing.T) {
	t.Parallel()
	w := newCapsWorld(t, `{"dailyUsd": 1, "timeZone": "Europe/Vienna"}`)
	marks := t.TempDir()
	first, second := filepath.Join(marks, "first"), filepath.Join(marks, "second")
	w.LLM.Enqueue(runs("touch "+first, 0.6), runs("touch "+second, 0.6), says("never said", 0.6))
	w.run()

	w.tg.Say(group, ada, "@mom_bot do two things")
	// The run's status message ends with the error; its thread shows it again in full.
	const refusal = "Sorry, something went wrong: The daily limit of $1 for this workspace is reached; it resets at 00:00 Europe/Vienna. Admins can raise it in config.json."
	w.botSays(refusal, 1)
	w.botSays("Heads-up for admins: the daily limit of $1 for this workspace is reached ($1.20 spent)", 1)
	for _, f := range []string{first, second} {
		if _, err := os.Stat(f); err != nil {
			t.Errorf("the tool of a call made before the cap was reached did not run: %v", err)
		}
	}
	if n := len(w.LLM.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2: the call after the cap is never made", n)
	}
	w.WaitLog("model call refused: spending cap reached")
	w.runsFinished(1)

	w.Stop()
	w.run()
	w.tg.Say(group, ada, "@mom_bot and now?")
	w.botSays(refusal, 2)
	if n := len(w.LLM.Requests()); n != 2 {
		t.Errorf("after the restart the model got %d requests, want still 2", n)
	}
	if n := w.botSaid("Heads-up for admins"); n != 1 {
		t.Errorf("the admins were told %d times, want once", n)
	}
	w.Stop() // the files are complete

	fromContext := contextUsage(t, filepath.Join(w.ChannelDir("tg", strconv.FormatInt(group, 10)), "context.jsonl"))
	var fromLedger spend.Total
	err := spend.Read(w.Dir, time.Time{}, func(r spend.Record) error {
		fromLedger.Calls++
		fromLedger.Tokens += r.Usage.TotalTokens
		fromLedger.USD += r.Usage.Cost.Total
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if fromLedger.Calls != 2 || fromLedger != fromContext {
		t.Errorf("the ledger holds %+v; context.jsonl's usage lines sum to %+v; want them equal, of 2 calls", fromLedger, fromContext)
	}
}

// contextUsage sums the usage of the assistant messages of a context.jsonl that cost
// something.
func contextUsage(t *testing.T, path string) spend.Total {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var sum spend.Total
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var e struct {
			Type    string `json:"type"`
			Message struct {
				Role  string `json:"role"`
				Usage struct {
					TotalTokens int `json:"totalTokens"`
					Cost        struct {
						Total float64 `json:"total"`
					} `json:"cost"`
				} `json:"usage"`
			} `json:"message"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if e.Type == "message" && e.Message.Role == "assistant" && e.Message.Usage.TotalTokens > 0 {
			sum.Calls++
			sum.Tokens += e.Message.Usage.TotalTokens
			sum.USD += e.Message.Usage.Cost.Total
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return sum
}

// TestCapPerPerson: a person who spent their allowance is refused, and someone else in the
// same group is still answered.
func TestCapPerPerson(t *testing.T) {
	t.Parallel()
	w := newCapsWorld(t, `{"perUserDailyUsd": 0.5}`)
	w.LLM.Enqueue(says("Hello ada.", 0.6), says("Hello bea.", 0.1))
	w.run()
	w.tg.Say(group, ada, "@mom_bot hello")
	w.botSays("Hello ada.", 1)
	w.runsFinished(1)
	w.tg.Say(group, ada, "@mom_bot hello again")
	w.botSays("The daily limit of $0.50 per person is reached; it resets at 00:00 UTC. Admins can raise it in config.json.", 1)
	w.runsFinished(2)
	w.tg.Say(group, bea, "@mom_bot hello")
	w.botSays("Hello bea.", 1)
	if n := len(w.LLM.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2 (ada's first, bea's)", n)
	}
}

// TestCapWakeUps: the wake-ups of a channel are capped as one person: once they spent the
// allowance, the next is refused in the channel, while the people there are still answered.
func TestCapWakeUps(t *testing.T) {
	t.Parallel()
	w := newCapsWorld(t, `{"perUserDailyUsd": 0.5}`)
	w.LLM.Enqueue(says("Nightly check done.", 0.6), says("Hello ada.", 0.1))
	w.run()
	wake := func(name string) {
		t.Helper()
		event := fmt.Sprintf(`{"type": "immediate", "channelId": "tg/%d", "text": "the nightly check"}`, group)
		if err := os.WriteFile(filepath.Join(w.Dir, "workspace", "events", name), []byte(event), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	wake("first.json")
	w.botSays("Nightly check done.", 1)
	w.runsFinished(1)
	wake("second.json")
	w.botSays("The daily limit of $0.50 for this channel's wake-ups is reached; it resets at 00:00 UTC. Admins can raise it in config.json.", 1)
	w.runsFinished(2)
	w.tg.Say(group, ada, "@mom_bot hello")
	w.botSays("Hello ada.", 1)
	if n := len(w.LLM.Requests()); n != 2 {
		t.Errorf("the model got %d requests, want 2 (the first wake-up's, ada's)", n)
	}
}

// TestCapWarnsOnce: the admins are told once when 80% of a cap is spent, by the call that
// passed it, not by the calls after it.
func TestCapWarnsOnce(t *testing.T) {
	t.Parallel()
	w := newCapsWorld(t, `{"dailyUsd": 1}`)
	w.LLM.Enqueue(says("One.", 0.45), says("Two.", 0.45), says("Three.", 0.45))
	w.run()
	for i, answer := range []string{"One.", "Two.", "Three."} {
		w.tg.Say(group, ada, fmt.Sprintf("@mom_bot question %d", i+1))
		w.botSays(answer, 1)
		w.runsFinished(i + 1)
	}
	const warning = "Heads-up for admins: 80% of the daily limit of $1 for this workspace is spent ($0.90 so far); at $1, model calls stop until it resets at 00:00 UTC."
	w.botSays(warning, 1)
	w.tg.Say(group, ada, "@mom_bot question 4")
	w.botSays("The daily limit of $1 for this workspace is reached", 1)
	if n := w.botSaid("Heads-up for admins"); n != 1 {
		t.Errorf("the admins were told %d times, want once", n)
	}
}
