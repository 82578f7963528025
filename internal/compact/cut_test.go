package compact

import (
	"testing"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

func cut(c *convo, keep int) CutPoint {
	e := c.sess.Entries()
	return FindCutPoint(e, 0, len(e), keep)
}

// Turns of 100 tokens (a 50-token question, a 50-token answer): the cut is at the message
// where the newest messages reach keep, or just after it.
func TestCutPointAtTurnStart(t *testing.T) {
	c := newConvo(t)
	for range 5 {
		c.user(words(50))
		c.answer(words(50), 0)
	}
	u4 := c.user(words(50))
	a4 := c.answer(words(50), 0)
	u5 := c.user(words(50))
	c.answer(words(50), 0)

	// The newest three messages (a5, u5, a4) reach 150: the cut is at a4, inside u4's turn.
	got := cut(c, 150)
	if got != (CutPoint{FirstKept: c.index(a4), TurnStart: c.index(u4)}) {
		t.Fatalf("keep 150: cut %+v, want at a4 %d splitting the turn from u4 %d", got, c.index(a4), c.index(u4))
	}
	// 200 is reached at u4 itself: a clean cut at a turn's start.
	got = cut(c, 200)
	if got != (CutPoint{FirstKept: c.index(u4), TurnStart: -1}) {
		t.Fatalf("keep 200: cut %+v, want at the user message %d", got, c.index(u4))
	}
	// 100 is reached at u5.
	if got = cut(c, 100); got != (CutPoint{FirstKept: c.index(u5), TurnStart: -1}) {
		t.Fatalf("keep 100: cut %+v, want at u5 %d", got, c.index(u5))
	}
}

// A cut that lands inside a turn is a split turn whose start is the user message.
func TestCutPointSplitsTurn(t *testing.T) {
	c := newConvo(t)
	c.user(words(100))
	c.answer(words(100), 0)
	u := c.user("do the long task")
	var answers []string
	for range 6 {
		call := c.call("bash", map[string]any{"command": "step"})
		answers = append(answers, c.answer("next step", 0, call))
		c.result(call, words(100))
	}
	c.answer("done", 0)

	got := cut(c, 250)
	if !got.SplitTurn() {
		t.Fatalf("cut %+v does not split the long turn", got)
	}
	if got.TurnStart != c.index(u) {
		t.Fatalf("turn start %d, want the user message at %d", got.TurnStart, c.index(u))
	}
	e := c.sess.Entries()[got.FirstKept]
	if e.Message == nil || e.Message.Role != llm.RoleAssistant {
		t.Fatalf("cut at %+v, want an assistant message", e)
	}
	if got.FirstKept != c.index(answers[4]) {
		t.Fatalf("cut at %d, want the fifth step's answer at %d", got.FirstKept, c.index(answers[4]))
	}
}

// The message where the kept tokens are reached is a tool result: the cut moves to the next
// allowed place, never onto the result.
func TestCutPointNeverAtToolResult(t *testing.T) {
	c := newConvo(t)
	for range 4 {
		c.user(words(20))
		call := c.call("bash", map[string]any{"command": "ls"})
		c.answer("", 0, call)
		c.result(call, words(300))
		c.answer(words(20), 0)
	}
	for keep := 1; keep < 1500; keep += 7 {
		got := cut(c, keep)
		e := c.sess.Entries()[got.FirstKept]
		if e.Message != nil && e.Message.Role == llm.RoleToolResult {
			t.Fatalf("keep %d: cut at a tool result (%+v)", keep, got)
		}
	}
}

// One answer followed by tool results bigger than keep has no allowed cut after the point
// where keep is reached: the cut keeps the whole answer and its results rather than nothing.
func TestCutPointHugeLastTurn(t *testing.T) {
	c := newConvo(t)
	c.user(words(500))
	c.answer(words(500), 0)
	u := c.user("read everything")
	call1, call2 := c.call("bash", map[string]any{"command": "a"}), c.call("bash", map[string]any{"command": "b"})
	a := c.answer("", 0, call1, call2)
	c.result(call1, words(400))
	c.result(call2, words(400))

	got := cut(c, 300)
	if got.FirstKept != c.index(a) || got.TurnStart != c.index(u) {
		t.Fatalf("cut %+v, want at the answer %d in the turn starting at %d", got, c.index(a), c.index(u))
	}
}

// Entries that are not messages just before the cut (mom's log cursor) stay with it.
func TestCutPointKeepsEntriesBeforeIt(t *testing.T) {
	c := newConvo(t)
	c.user(words(200))
	c.answer(words(200), 0)
	cur := c.custom()
	c.user(words(20))
	c.answer(words(20), 0)

	got := cut(c, 30)
	if got.FirstKept != c.index(cur) {
		t.Fatalf("cut at %d, want the cursor entry %d before the user message", got.FirstKept, c.index(cur))
	}
	e := c.sess.Entries()
	if e[got.FirstKept].Type != session.TypeCustom {
		t.Fatalf("first kept entry is %s", e[got.FirstKept].Type)
	}
}

// Everything fits: the cut is at the first message and nothing is summarized.
func TestCutPointEverythingFits(t *testing.T) {
	c := newConvo(t)
	c.custom()
	first := c.user("hi")
	c.answer("hello", 0)
	got := cut(c, 1000)
	if got.FirstKept != c.index(first)-1 && got.FirstKept != c.index(first) {
		t.Fatalf("cut %+v, want at the start", got)
	}
	if _, err := Prepare(c.sess.Entries(), Settings{ReserveTokens: 100, KeepRecentTokens: 1000}, 0); err != ErrNothingToCompact {
		t.Fatalf("Prepare: %v, want ErrNothingToCompact", err)
	}
}
