package web

import (
	"reflect"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
)

// types lists the frames' types and texts, for comparing orders.
func types(fs []frame) []string {
	var out []string
	for _, f := range fs {
		s := f.Type + ":" + f.Text
		if f.Message != nil {
			s += f.Message.Text
		}
		out = append(out, s)
	}
	return out
}

// TestNoteFollowsTheMessageItAnswers: the hub may post "Stopping…" before Receive returns;
// the browsers still get the person's "stop" first. Notes in other channels, and notes when
// no message is on its way, go out at once.
func TestNoteFollowsTheMessageItAnswers(t *testing.T) {
	a := New(Options{Name: "web"})
	c := a.live.subscribe()
	drain(t, c) // hello

	stop := chat.Message{ID: "m1", ChannelID: "general", Text: "stop"}
	a.notes.hold("general")
	a.notes.send(frame{Type: "notice", Channel: "general", ID: "n1", Text: "_Stopping…_"})
	a.notes.send(frame{Type: "notice", Channel: "ops", ID: "n2", Text: "_Nothing running._"})
	a.notes.send(frame{Type: "notice_edit", Channel: "general", ID: "n1", Text: "_Stopped._"})
	if got := types(drain(t, c)); !reflect.DeepEqual(got, []string{"notice:_Nothing running._"}) {
		t.Errorf("while the stop was on its way: %v", got)
	}
	a.notes.release("general", func() { a.showMessage(stop) })
	want := []string{"message:stop", "notice:_Stopping…_", "notice_edit:_Stopped._"}
	if got := types(drain(t, c)); !reflect.DeepEqual(got, want) {
		t.Errorf("after it was logged: %v, want %v", got, want)
	}
	a.notes.send(frame{Type: "notice_gone", Channel: "general", ID: "n1"})
	if got := types(drain(t, c)); !reflect.DeepEqual(got, []string{"notice_gone:"}) {
		t.Errorf("with nothing on its way: %v", got)
	}
}

// TestNotesWaitForEveryMessageOnItsWay: with two messages on their way, notes wait for both;
// a message the hub refused (nothing to show) still lets them go.
func TestNotesWaitForEveryMessageOnItsWay(t *testing.T) {
	a := New(Options{Name: "web"})
	c := a.live.subscribe()
	drain(t, c)
	a.notes.hold("general")
	a.notes.hold("general")
	a.notes.send(frame{Type: "notice", Channel: "general", ID: "n1", Text: "busy"})
	a.notes.release("general", nil) // refused: not logged, not shown
	if got := drain(t, c); len(got) != 0 {
		t.Errorf("with one message still on its way: %v", types(got))
	}
	a.notes.release("general", func() { a.showMessage(chat.Message{ID: "m2", ChannelID: "general", Text: "hi"}) })
	if got, want := types(drain(t, c)), []string{"message:hi", "notice:busy"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
}
