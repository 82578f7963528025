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

// TestDedupHandleAhead: a key a delivery claimed on the same lane and still waits to handle
// is handled ahead of it, and the delivery then finds it done; one claimed on another lane, or
// handled already, is not handled; a failure leaves a delivery's claim to the delivery and
// releases the caller's own.
func TestDedupHandleAhead(t *testing.T) {
	t.Parallel()
	d := NewDedup(8)
	redelivered := false
	if d.ClaimIn("waiting", "C1", func() {}, nil) != ClaimNew {
		t.Fatal("first delivery not new")
	}
	if d.Claim("waiting", func() { redelivered = true }) != ClaimBusy {
		t.Fatal("a redelivery during handling must wait")
	}
	ran, err := d.HandleAhead("waiting", "C1", func() error { return nil })
	if !ran || err != nil {
		t.Fatalf("a key claimed and waiting on the lane was not handled ahead (ran %v, %v)", ran, err)
	}
	if !d.Handled("waiting") || !redelivered {
		t.Errorf("handled %v, redelivery acknowledged %v; want both", d.Handled("waiting"), redelivered)
	}
	if ran, _ := d.HandleAhead("waiting", "C1", func() error { return nil }); ran {
		t.Error("a handled key was handled again")
	}

	d.ClaimIn("elsewhere", "T9", func() {}, nil)
	if ran, _ := d.HandleAhead("elsewhere", "C1", func() error { return nil }); ran || d.Handled("elsewhere") {
		t.Error("a key claimed on another lane, maybe being handled there now, was handled ahead")
	}

	boom := fmt.Errorf("disk full")
	d.ClaimIn("theirs", "C1", func() {}, nil)
	if _, err := d.HandleAhead("theirs", "C1", func() error { return boom }); err != boom {
		t.Fatalf("err %v; want fn's", err)
	}
	if d.Handled("theirs") || d.Claim("theirs", func() {}) != ClaimBusy {
		t.Error("a failure ahead of a delivery must leave the key claimed by it")
	}
	if _, err := d.HandleAhead("mine", "C1", func() error { return boom }); err != boom {
		t.Fatalf("err %v; want fn's", err)
	}
	if d.Claim("mine", func() {}) != ClaimNew {
		t.Error("a failed key of the caller's own must be released")
	}
}
