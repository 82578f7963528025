package agent

import (
	"strings"
	"testing"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestMarkLogSyncedSkipsWhatTheContextHolds: lines before the mark are taken to be in the
// context already (an imported one); the first run adds only the lines after it.
func TestMarkLogSyncedSkipsWhatTheContextHolds(t *testing.T) {
	r := newRig(t)
	r.say("bea", "said to the old mom")
	_, mark := r.say("cem", "also in the old context")
	r.say("bea", "said after the old mom's last run")
	m, end := r.say("bea", "what now?")
	sess, err := r.ch.Session()
	if err != nil {
		t.Fatal(err)
	}
	if err := MarkLogSynced(sess, mark); err != nil {
		t.Fatal(err)
	}
	r.llm.Enqueue(fakellm.Text("Here."))
	r.handle(m, end)
	got := userTexts(r.llm.Requests()[0])
	want := []string{"[bea]: said after the old mom's last run", "[2026-03-15 10:00:05+00:00] [bea]: what now?"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("user messages:\n got %q\nwant %q", got, want)
	}
}
