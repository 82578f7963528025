package render

import (
	"context"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/run"
)

func TestProgressReusesTheStatusMessageOfAnInterruptedRun(t *testing.T) {
	t.Parallel()
	b := newBoard()
	old, _ := b.Post(context.Background(), chat.Place{ChannelID: "C1"}, "_Thinking…_")
	var mu sync.Mutex
	var heard []string
	opts := Options{At: chat.Place{ChannelID: "C1"}, StatusOptions: StatusOptions{
		Text: "_Restarted — working on it again…_", Reuse: old, ReuseAt: chat.Place{ChannelID: "C1"},
		Posted: func(_ chat.Place, id string) { mu.Lock(); heard = append(heard, id); mu.Unlock() },
	}}
	play(t, b, style(Quiet), opts, run.Event{Type: run.AgentStart}, assistant("Here it is."), end(llm.StopEnd, ""))
	if top := b.visible(""); len(top) != 1 || top[0] != "Here it is." {
		t.Errorf("top level = %q; want the answer in place of the old status message", top)
	}
	if len(heard) != 1 || heard[0] != old {
		t.Errorf("Posted heard %q, want the reused %q", heard, old)
	}

	// Where the old message is gone, a new one is posted, and Posted hears of it.
	b = newBoard()
	heard = nil
	opts.Reuse = "gone"
	play(t, b, style(Quiet), opts, run.Event{Type: run.AgentStart}, assistant("Again."), end(llm.StopEnd, ""))
	if top := b.visible(""); len(top) != 1 || top[0] != "Again." || len(heard) != 1 || heard[0] != "1" {
		t.Errorf("top level = %q, heard %q; want the answer in a new message, heard as 1", top, heard)
	}

	// Without edits, the old message is left alone.
	b = newBoard()
	old, _ = b.Post(context.Background(), chat.Place{ChannelID: "C1"}, "_Thinking…_")
	opts.Reuse = old
	d := style(Quiet)
	d.Edit, d.Delete = false, false
	play(t, b, d, opts, run.Event{Type: run.AgentStart}, assistant("Once more."), end(llm.StopEnd, ""))
	if top := b.visible(""); len(top) != 3 || top[0] != "_Thinking…_" || top[1] != "_Restarted — working on it again…_" {
		t.Errorf("top level = %q", top)
	}
}
