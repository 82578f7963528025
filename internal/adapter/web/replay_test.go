package web_test

import (
	"strings"
	"testing"

	fakeweb "github.com/mom-agent/mom/internal/fake/web"
)

// A page is what log.jsonl says (the history) plus what the WebSocket says (the run in
// progress, replayed on connect, then everything live). These tests play the page's part
// over the wire, as app.js does, and check that the two never show the same answer twice
// however a reload, a reconnect or a second tab falls against a run.

// once fails the test unless every one of texts appears exactly once on the page.
func once(t *testing.T, who, page string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		if n := strings.Count(page, s); n != 1 {
			t.Errorf("%s shows %q %d times, want once; the page:\n%s", who, s, n, page)
		}
	}
}

// TestWebReplayAndHistoryShowEachAnswerOnce: a tab that connects in the middle of a run gets
// the run replayed; mom's first answer of that run is already in log.jsonl, and the run ends
// (logging the last answer too) before the tab fetches the history. The tab that watched
// from the start, the one that came in the middle and one that comes after the run each
// show every message exactly once; so does a tab whose history comes after a whole run that
// began after its hello, and a tab that saw an answer fail and be retried.
func TestWebReplayAndHistoryShowEachAnswerOnce(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t)
	release := fakeweb.ScriptMidRun(t, ww.LLM)
	ww.run()
	first := ww.OpenTab()
	if resp, body := ww.Post("general", "Ada", "what is the answer?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	first.ReadUntil("the last answer streamed", func(f fakeweb.Frame) bool { return f.Type == "text" && f.Text == "The answer is 42." })

	middle := ww.OpenTab() // a reload while the model holds the last answer open
	release()
	first.ReadUntil("the run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	middle.ReadUntil("the run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	if middle.Frames[0].Type != "run_start" {
		t.Errorf("the replay starts with %+v, want the run's start", middle.Frames[0])
	}
	texts := []string{"what is the answer?", "Let me look.", "The answer is 42."}
	once(t, "the tab that came in the middle of the run", middle.Load("general"), texts...)
	once(t, "the tab that watched the run", first.Load("general"), texts...)
	after := ww.OpenTab()
	once(t, "a tab opened after the run", after.Load("general"), texts...)

	// A second run begins after the tab's hello and logs its answer before the tab's history
	// request is answered: the page, which sent that request before the run_start frame came,
	// sees a run its request did not leave out and asks again, leaving it out.
	if resp, body := ww.Post("general", "Ada", "and again?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	after.ReadUntil("the second run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	middle.ReadUntil("the second run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	if after.RunsFrom("general") == nil {
		t.Fatal("the second run's start does not say where it begins in log.jsonl")
	}
	texts = append(texts, "and again?", "Still 42.")
	once(t, "a tab whose history came late", after.Load("general"), texts...)
	once(t, "the tab that came in the middle of the run", middle.Load("general"), texts...)

	// An answer fails after its text streamed and is retried; the retry writes it anew, and
	// the page shows only that.
	if resp, body := ww.Post("general", "Ada", "once more?", nil); resp.StatusCode != 200 {
		t.Fatalf("send: %d %s", resp.StatusCode, body)
	}
	middle.ReadUntil("the third run's end", func(f fakeweb.Frame) bool { return f.Type == "run_end" })
	texts = append(texts, "once more?", "Done.")
	page := middle.Load("general")
	once(t, "the tab that saw an answer retried", page, texts...)
	if strings.Contains(page, "Half an answer") {
		t.Errorf("the tab still shows the attempt that failed:\n%s", page)
	}

	// Without the frames, the history alone has everything.
	fresh := ww.OpenTab()
	once(t, "a tab opened at the end", fresh.Load("general"), texts...)
	ww.Stop()
}
