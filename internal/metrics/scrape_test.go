package metrics_test

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/apptest"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	faketg "github.com/mom-agent/mom/internal/fake/telegram"
	faketranscribe "github.com/mom-agent/mom/internal/fake/transcribe"
)

// The tokens of the tests' config: the metrics' own, and the web chat's.
const (
	metricsToken = "metrics-token-0123456789"
	webToken     = "web-chat-token-0123456789"
)

const ada, group = faketg.TeamAda, faketg.TeamGroup

// world is a whole mom, in-process, with a Telegram adapter "tg" on the fake Bot API, a web
// chat "web", and the health checks on an address of their own.
type world struct {
	*apptest.World
	t  *testing.T
	tg *faketg.Server
}

func newWorld(t *testing.T, metrics string) *world {
	t.Helper()
	tg := faketg.NewTeam()
	t.Cleanup(tg.Close)
	w := &world{World: apptest.New(t), t: t, tg: tg}
	t.Cleanup(w.Stop)
	w.WriteConfig(fmt.Sprintf(`{
  "model": {"provider": "anthropic", "id": "claude-sonnet-4-5", "apiKey": %q, "baseUrl": %q},
  "retry": {"maxRetries": 3, "baseDelayMs": 1, "maxDelayMs": 50},
  "health": {"listen": "127.0.0.1:0"},
  "metrics": %s,
  "adapters": {
    "tg": {"type": "telegram", "botToken": %q, "apiUrl": %q, "admins": ["%d"]},
    "web": {"type": "web", "listen": "127.0.0.1:0", "token": %q},
  },
}`, apptest.APIKey, w.LLM.URL(), metrics, tg.Token(), tg.URL(), ada, webToken))
	return w
}

// run starts mom and waits until it polls Telegram.
func (w *world) run() {
	w.t.Helper()
	w.Start()
	w.tg.WaitFor(w.t, "mom to poll for updates", w.tg.Polling)
}

// botSays waits for a message of the bot in the group that holds want.
func (w *world) botSays(want string) {
	w.t.Helper()
	apptest.AwaitMessage(w.t, w.tg.WaitFor, fmt.Sprintf("the bot to say %q", want),
		func() []faketg.Message { return w.tg.Messages(group, 0) },
		func(m faketg.Message) bool { return m.From == w.tg.Bot().ID && strings.Contains(m.Text, want) })
}

// The addresses mom logs when it listens.
var (
	healthAt = regexp.MustCompile(`msg="health checks listening" addr=(\S+)`)
	webAt    = regexp.MustCompile(`msg="web chat listening" adapter=web addr=(\S+)`)
)

// addr is the address logged by the line at matches.
func (w *world) addr(at *regexp.Regexp) string {
	w.t.Helper()
	var m []string
	apptest.Eventually(w.t, "mom to log "+at.String(), func() bool {
		m = at.FindStringSubmatch(w.Log())
		return m != nil
	})
	return m[1]
}

// get asks addr for /metrics with token ("" for none) and returns the status and body.
func get(t *testing.T, addr, token string) (int, string) {
	t.Helper()
	req, err := http.NewRequest("GET", "http://"+addr+"/metrics", nil)
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(body)
}

// scrape reads /metrics from the health checks' address into series → value, failing the
// test on a line that is not the text format.
func (w *world) scrape() map[string]float64 {
	w.t.Helper()
	status, body := get(w.t, w.addr(healthAt), metricsToken)
	if status != http.StatusOK {
		w.t.Fatalf("GET /metrics = %d %s", status, body)
	}
	return parse(w.t, body)
}

// sample is one line of the text format: a series (name and labels) and its value.
var sample = regexp.MustCompile(`^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$`)

// parse reads the Prometheus text format, as a scraper would.
func parse(t *testing.T, body string) map[string]float64 {
	t.Helper()
	out := make(map[string]float64)
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		m := sample.FindStringSubmatch(line)
		if m == nil {
			t.Fatalf("not a line of the Prometheus text format: %q", line)
		}
		v, err := strconv.ParseFloat(m[2], 64)
		if err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		out[m[1]] = v
	}
	return out
}

// waitFor scrapes until series has value want.
func (w *world) waitFor(series string, want float64) {
	w.t.Helper()
	var got map[string]float64
	apptest.Eventually(w.t, fmt.Sprintf("%s to be %v", series, want), func() bool {
		got = w.scrape()
		return got[series] == want
	})
}

// TestScrapeAfterARun: after a run with a retried model call, a tool call and a busy reply,
// an event and a lost Telegram connection, /metrics counts each of them, per adapter and
// never per channel.
func TestScrapeAfterARun(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fmt.Sprintf(`{"token": %q}`, metricsToken))
	gate := apptest.NewGate(t)
	w.LLM.Enqueue(
		fakellm.Overloaded(),
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Work", "command": gate.Command()})),
		fakellm.Text("All done."),
	)
	w.run()

	w.tg.Say(group, ada, "@mom_bot do the thing")
	gate.WaitStarted()
	w.tg.Say(group, ada, "@mom_bot are you done?")
	w.botSays("Already working")
	if m := w.scrape(); m["mom_runs_running"] != 1 {
		t.Errorf("mom_runs_running during the run = %v, want 1", m["mom_runs_running"])
	}
	gate.Release()
	w.botSays("All done.")
	w.waitFor(`mom_runs_finished_total{adapter="tg",result="stop"}`, 1)
	w.waitFor(`mom_runs_running`, 0) // the slot is given back once the reply is finished

	const model = `model="anthropic/claude-sonnet-4-5"`
	m := w.scrape()
	for series, want := range map[string]float64{
		`mom_runs_started_total{adapter="tg",trigger="message"}`:      1,
		`mom_run_duration_seconds_count{adapter="tg"}`:                1,
		`mom_busy_replies_total{adapter="tg",policy="reject"}`:        1,
		`mom_tool_calls_total{adapter="tg",tool="bash",outcome="ok"}`: 1,
		`mom_tool_call_duration_seconds_count{tool="bash"}`:           1,
		`mom_model_retries_total{adapter="tg"}`:                       1,
		`mom_model_calls_total{` + model + `,result="transient"}`:     1,
		`mom_model_calls_total{` + model + `,result="ok"}`:            2,
		`mom_model_call_duration_seconds_count{` + model + `}`:        3,
		`mom_adapter_connected{adapter="tg"}`:                         1,
		`mom_adapter_connected{adapter="web"}`:                        1,
		`mom_adapter_reconnects_total{adapter="tg"}`:                  0,
		`mom_runs_running`:                                                   0,
		`mom_triggers_queued`:                                                0,
		`mom_runs_waiting_for_slot`:                                          0,
		`mom_model_tokens_total{` + model + `,kind="output"}`:                -1, // any count above 0
		`mom_model_cost_usd_total{` + model + `}`:                            -1,
		`mom_run_duration_seconds_bucket{adapter="tg",le="+Inf"}`:            1,
		`mom_model_call_duration_seconds_bucket{` + model + `,le="+Inf"}`:    3,
		`process_resident_memory_bytes`:                                      -1,
		`go_goroutines`:                                                      -1,
		`mom_events_fired_total{adapter="tg",result="queued"}`:               -2, // not yet
		`mom_runs_started_total{adapter="tg",trigger="event"}`:               -2,
		`mom_compactions_total{adapter="tg",reason="threshold",result="ok"}`: -2,
	} {
		got, ok := m[series]
		switch {
		case want == -1 && !(got > 0):
			t.Errorf("%s = %v, want above 0", series, got)
		case want == -2 && ok:
			t.Errorf("%s = %v, want no such series yet", series, got)
		case want >= 0 && (!ok || got != want):
			t.Errorf("%s = %v (present: %v), want %v", series, got, ok, want)
		}
	}
	for series := range m {
		if strings.Contains(series, "channel=") || strings.Contains(series, strconv.FormatInt(group, 10)) {
			t.Errorf("a series names a channel without \"perChannel\": %s", series)
		}
	}

	// An event fired at the group's channel is a run of its own.
	w.LLM.Enqueue(fakellm.Text("Event handled."))
	event := fmt.Sprintf(`{"type":"immediate","channelId":"tg/%d","text":"the nightly check"}`, group)
	if err := os.WriteFile(filepath.Join(w.Dir, "workspace", "events", "nightly.json"), []byte(event), 0o644); err != nil {
		t.Fatal(err)
	}
	w.botSays("Event handled.")
	w.waitFor(`mom_runs_finished_total{adapter="tg",result="stop"}`, 2)
	m = w.scrape()
	for series, want := range map[string]float64{
		`mom_events_fired_total{adapter="tg",result="queued"}`: 1,
		`mom_runs_started_total{adapter="tg",trigger="event"}`: 1,
	} {
		if m[series] != want {
			t.Errorf("%s = %v, want %v", series, m[series], want)
		}
	}

	// Another program polling the bot's updates keeps mom from receiving them (409 Conflict)
	// until it stops.
	stopRival := w.tg.StartRival()
	w.waitFor(`mom_adapter_connected{adapter="tg"}`, 0)
	w.waitFor(`mom_adapter_disconnects_total{adapter="tg"}`, 1)
	stopRival()
	w.waitFor(`mom_adapter_reconnects_total{adapter="tg"}`, 1)
	w.waitFor(`mom_adapter_connected{adapter="tg"}`, 1)
}

// TestMetricsNeedAToken: /metrics answers 401 without a token that opens it, on both
// addresses; the web chat's token opens it too, there and on the health checks' address; and
// the health checks still need none.
func TestMetricsNeedAToken(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fmt.Sprintf(`{"token": %q}`, metricsToken))
	w.run()
	health, web := w.addr(healthAt), w.addr(webAt)
	for _, addr := range []string{health, web} {
		for token, want := range map[string]int{"": 401, "wrong-token-0123456789": 401, metricsToken: 200, webToken: 200} {
			status, body := get(t, addr, token)
			if status != want {
				t.Errorf("GET %s/metrics with token %q = %d, want %d", addr, token, status, want)
			}
			if status == 401 && !strings.Contains(body, `"metrics": {"token": ...}`) {
				t.Errorf("the 401 does not say where the token comes from: %q", body)
			}
		}
		resp, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("GET %s/healthz without a token = %d, want 200", addr, resp.StatusCode)
		}
	}
}

// TestMetricsPerChannel: with "perChannel": true the per-adapter counters name the channel.
func TestMetricsPerChannel(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fmt.Sprintf(`{"token": %q, "perChannel": true}`, metricsToken))
	w.LLM.Enqueue(fakellm.Text("Hello."))
	w.run()
	w.tg.Say(group, ada, "@mom_bot hi")
	w.botSays("Hello.")
	w.waitFor(fmt.Sprintf(`mom_runs_finished_total{adapter="tg",channel="%d",result="stop"}`, group), 1)
	if m := w.scrape(); m[fmt.Sprintf(`mom_runs_started_total{adapter="tg",channel="%d",trigger="message"}`, group)] != 1 {
		t.Errorf("runs started in the group: %v", m)
	}
}

// TestScrapeCountsVoiceNotes: transcribed voice notes are counted with their minutes and
// cost, and the ones left untranscribed by why.
func TestScrapeCountsVoiceNotes(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fmt.Sprintf(`{"token": %q}`, metricsToken))
	stt := faketranscribe.New()
	t.Cleanup(stt.Close)
	w.AddConfig(fmt.Sprintf(`"transcription": {"baseUrl": %q, "maxMinutes": 1, "pricePerMinute": 0.006}`, stt.URL()))
	stt.Enqueue(faketranscribe.Text("hello there", 42))
	w.LLM.Enqueue(fakellm.Text("Hello."), fakellm.Text("Too long."))
	w.run()
	w.tg.Say(ada, ada, "", faketg.WithVoice(faketranscribe.OggOpus(42*time.Second)))
	w.waitFor(`mom_runs_finished_total{adapter="tg",result="stop"}`, 1)
	w.tg.Say(ada, ada, "", faketg.WithVoice(faketranscribe.OggOpus(2*time.Minute)))
	w.waitFor(`mom_runs_finished_total{adapter="tg",result="stop"}`, 2)
	m := w.scrape()
	for series, want := range map[string]float64{
		`mom_transcriptions_total{result="ok"}`:       1,
		`mom_transcriptions_total{result="too_long"}`: 1,
		`mom_transcribed_seconds_total`:               42,
		`mom_transcription_cost_usd_total`:            0.0042,
	} {
		if got := m[series]; got < want-1e-9 || got > want+1e-9 {
			t.Errorf("%s = %v, want %v", series, got, want)
		}
	}
}

// TestScrapeCountsApprovals: a command that waited for a person's yes is counted by the
// decision, with how long it waited.
func TestScrapeCountsApprovals(t *testing.T) {
	t.Parallel()
	w := newWorld(t, fmt.Sprintf(`{"token": %q}`, metricsToken))
	w.AddConfig(`"approvals": {"mode": "ask"}`)
	w.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Greet", "command": "echo hello"})),
		fakellm.Text("Said hello."),
	)
	w.run()
	w.tg.Say(ada, ada, "say hello")
	apptest.AwaitMessage(t, w.tg.WaitFor, "the approval question",
		func() []faketg.Message { return w.tg.Messages(ada, 0) },
		func(m faketg.Message) bool {
			return m.From == w.tg.Bot().ID && strings.Contains(m.Text, "Approval needed")
		})
	w.tg.Say(ada, ada, "yes")
	apptest.AwaitMessage(t, w.tg.WaitFor, "the answer",
		func() []faketg.Message { return w.tg.Messages(ada, 0) },
		func(m faketg.Message) bool { return m.From == w.tg.Bot().ID && strings.Contains(m.Text, "Said hello.") })
	w.waitFor(`mom_approvals_total{adapter="tg",decision="allow"}`, 1)
	if m := w.scrape(); m[`mom_approval_wait_seconds_count{adapter="tg"}`] != 1 {
		t.Errorf("mom_approval_wait_seconds_count = %v, want 1", m[`mom_approval_wait_seconds_count{adapter="tg"}`])
	}
}
