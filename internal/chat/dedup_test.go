package chat

import (
	"fmt"
	"testing"
)

// TestDedupClaimOrTellsEveryWaiter: redeliveries that waited for the first delivery hear its
// outcome: acknowledged when it was handled, nacked when its handling failed, and a
// redelivery claimed with Claim (no nack) is simply not acknowledged.
func TestDedupClaimOrTellsEveryWaiter(t *testing.T) {
	t.Parallel()
	d := NewDedup(8)
	var got []string
	note := func(s string) func() { return func() { got = append(got, s) } }
	for _, key := range []string{"ok", "fails"} {
		if d.ClaimOr(key, note("ack "+key+" 1"), note("nack "+key+" 1")) != ClaimNew {
			t.Fatalf("first delivery of %s not new", key)
		}
		if d.ClaimOr(key, note("ack "+key+" 2"), note("nack "+key+" 2")) != ClaimBusy {
			t.Fatalf("redelivery of %s during handling must wait", key)
		}
		if d.Claim(key, note("ack "+key+" 3")) != ClaimBusy {
			t.Fatalf("redelivery of %s during handling must wait", key)
		}
	}
	d.Done("ok")
	d.Release("fails")
	if want := "[ack ok 2 ack ok 3 nack fails 2]"; fmt.Sprint(got) != want {
		t.Errorf("waiters heard %v; want %s", got, want)
	}
	if d.ClaimOr("fails", nil, nil) != ClaimNew {
		t.Error("a released key must be handled afresh")
	}
}
