package fakeslack

import (
	"strings"
	"testing"
	"time"
)

// TestNoteEdit: up to MaxEditsPerSecond edits of one message within a second are fine, one
// more is a violation, and edits a second apart never are. The times are made up, so nothing
// here depends on how fast the machine is.
func TestNoteEdit(t *testing.T) {
	s := New()
	t.Cleanup(s.Close)
	ch := &channel{Channel: Channel{ID: "C1"}}
	m := &message{ts: "1700000000.000100"}
	t0 := time.Unix(1_700_000_000, 0)
	for i := range 10 {
		s.noteEdit(ch, m, t0.Add(time.Duration(i)*editWindow))
	}
	for i := range MaxEditsPerSecond {
		s.noteEdit(ch, m, t0.Add(10*editWindow+time.Duration(i)*100*time.Millisecond))
	}
	if v := s.Violations(); len(v) != 0 {
		t.Fatalf("edits within the limit were reported: %q", v)
	}
	other := &message{ts: "1700000000.000200"}
	s.noteEdit(ch, other, t0.Add(10*editWindow+300*time.Millisecond))
	if v := s.Violations(); len(v) != 0 {
		t.Fatalf("an edit of another message counted against this one: %q", v)
	}
	s.noteEdit(ch, m, t0.Add(10*editWindow+900*time.Millisecond))
	v := s.Violations()
	if len(v) != 1 || !strings.Contains(v[0], "message 1700000000.000100 in C1 edited 4 times within a second") {
		t.Errorf("violations = %q; want the fourth edit within a second reported", v)
	}
}
