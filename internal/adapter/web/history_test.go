package web_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	webadapter "github.com/mom-agent/mom/internal/adapter/web"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	fakeweb "github.com/mom-agent/mom/internal/fake/web"
	"github.com/mom-agent/mom/internal/store"
)

// historyFrame is a frame of the history, as the page reads it.
type historyFrame struct {
	Type, Run, Text, HTML, StopReason, Summary, Error, Usage string
	Message                                                  *struct{ Text string }
}

// historyFrames fetches general's history and returns its frames.
func (ww *webWorld) historyFrames() []historyFrame {
	ww.t.Helper()
	resp, body := ww.Request("GET", "/api/channels/general/messages", ww.Token(), nil, nil)
	var h struct{ Frames []historyFrame }
	if err := json.Unmarshal([]byte(body), &h); err != nil || resp.StatusCode != 200 {
		ww.t.Fatalf("history: %d %v\n%s", resp.StatusCode, err, body)
	}
	return h.Frames
}

// kinds lists frames' types, with the text of messages and answers.
func kinds(fs []historyFrame) string {
	var out []string
	for _, f := range fs {
		s := f.Type
		switch {
		case f.Message != nil:
			s += ":" + f.Message.Text
		case f.Type == "text":
			s += ":" + f.Text
		case f.Type == "run_end":
			s += ":" + f.StopReason
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

// TestWebHistoryShowsHowAnswersCameAbout: after a run with a tool step and one that fails,
// and after mom restarts, the history has each run whole, as the page drew it live: the
// question, the run's start, its tool step, its answer rendered, its end with the usage; the
// failure as an error card's summary and details (its line breaks kept), without the line
// the agent logged for it. activity.jsonl keeps the steps beside log.jsonl; a line a command
// forged there as garbage is skipped; `mom download`'s transcript tells the same story.
func TestWebHistoryShowsHowAnswersCameAbout(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	ww.LLM.Enqueue(
		fakellm.Calls(fakellm.Call("bash", map[string]any{"label": "Count the files", "command": "echo 3"})),
		fakellm.Text("There are **3** files."),
		fakellm.Fail(400, "invalid_request_error", "the request is malformed:\nline two of the reason"),
	)
	ww.run()
	next := ww.liveFrames()
	next("hello", "")
	if resp, body := ww.Post("general", "Ada", "how many files?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	next("run_end", "")
	if resp, body := ww.Post("general", "Ada", "and now?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	next("run_end", "")
	ww.Stop()
	token := ww.Token()
	ww.Start() // the token is in web.token now: the address is printed without it
	log := ww.Log()
	base, _, ok := fakeweb.Announced(log[strings.LastIndex(log, "Web chat: "):])
	if !ok {
		t.Fatalf("no address after the restart in:\n%s", log)
	}
	ww.Browser = fakeweb.NewBrowser(t, base, token, ww.Log)

	got := ww.historyFrames()
	want := "message:how many files? run_start tool_start tool_end message_start text:There are **3** files. message_end run_end:stop " +
		"message:and now? run_start run_end:error"
	if kinds(got) != want {
		t.Errorf("the history after a restart:\n%s\nwant\n%s", kinds(got), want)
	}
	for _, f := range got {
		switch {
		case f.Type == "text" && f.HTML != "<p>There are <strong>3</strong> files.</p>":
			t.Errorf("the answer renders as %q", f.HTML)
		case f.Type == "run_end" && f.StopReason == "stop" && !strings.Contains(f.Usage, " in, "):
			t.Errorf("the first run's usage: %q", f.Usage)
		case f.Type == "run_end" && f.StopReason == "error" &&
			(f.Summary != "anthropic API error 400: the request is malformed:" || !strings.Contains(f.Error, "\nline two of the reason")):
			t.Errorf("the failed run's card: %q, details %q", f.Summary, f.Error)
		}
	}

	dir := ww.ChannelDir("web", "general")
	activity, err := os.ReadFile(filepath.Join(dir, "activity.jsonl"))
	if err != nil || !strings.Contains(string(activity), `"text":"Count the files"`) {
		t.Fatalf("activity.jsonl: %v\n%s", err, activity)
	}
	f, err := os.OpenFile(filepath.Join(dir, "activity.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("not json\n{\"at\": 1, \"type\": \"rm -rf\"}\n{\"at\": 99999999, \"type\": \"tool_end\", \"id\"") // a torn last line
	f.Close()
	if again := ww.historyFrames(); kinds(again) != want {
		t.Errorf("with forged lines in activity.jsonl:\n%s", kinds(again))
	}
	ww.Stop()

	st, err := store.Open(ww.Dir)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	ch, err := st.ChannelDir("web", "general")
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := webadapter.New(webadapter.Options{Name: "web"}).Transcript(ch, &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Ada: how many files?", "→ Count the files ✓", "mom: There are **3** files.", "↳ ",
		"✗ anthropic API error 400: the request is malformed:", "line two of the reason"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the transcript lacks %q:\n%s", want, out.String())
		}
	}
	if strings.Contains(out.String(), "Sorry, something went wrong") {
		t.Errorf("the transcript shows the failure twice:\n%s", out.String())
	}
}
