package chat

import (
	"errors"
	"sync"
	"testing"
	"time"
)

func TestDedup(t *testing.T) {
	d := NewDedup(2)
	acked := 0
	ack := func() { acked++ }
	if d.Claim("a", ack) != ClaimNew {
		t.Fatal("first delivery not new")
	}
	if d.Claim("a", ack) != ClaimBusy {
		t.Fatal("a redelivery during handling must wait")
	}
	d.Done("a")
	if acked != 1 {
		t.Errorf("the waiting redelivery was acked %d times, want 1", acked)
	}
	if d.Claim("a", ack) != ClaimDone {
		t.Error("a redelivery after handling must be dropped")
	}
	d.Claim("b", ack)
	d.Release("b") // handling failed: the next delivery is handled afresh
	if d.Claim("b", ack) != ClaimNew {
		t.Error("a released message must be handled again")
	}
	d.Done("b")
	d.Claim("c", ack)
	d.Done("c")
	if d.Claim("a", ack) != ClaimNew {
		t.Error("the oldest key should have been forgotten beyond the size")
	}
}

func TestLanesKeepOrderPerChannel(t *testing.T) {
	l := NewLanes()
	var mu sync.Mutex
	var got []int
	for i := range 100 {
		l.Run("C1", func() {
			if i == 0 {
				time.Sleep(time.Millisecond) // the first is slow; the rest must still wait
			}
			mu.Lock()
			got = append(got, i)
			mu.Unlock()
		})
	}
	l.Wait()
	for i, v := range got {
		if v != i {
			t.Fatalf("order broken at %d: %v", i, got)
		}
	}
	if len(got) != 100 {
		t.Fatalf("ran %d of 100", len(got))
	}
}

func TestDedupHandle(t *testing.T) {
	d := NewDedup(8)
	calls := 0
	fail := errors.New("disk full")
	if ran, err := d.Handle("a", func() error { calls++; return fail }); !ran || err != fail {
		t.Fatalf("first delivery: ran %v, err %v", ran, err)
	}
	if ran, err := d.Handle("a", func() error { calls++; return nil }); !ran || err != nil {
		t.Fatalf("a failed delivery must be handled afresh: ran %v, err %v", ran, err)
	}
	if ran, _ := d.Handle("a", func() error { calls++; return nil }); ran {
		t.Error("a handled message ran again")
	}
	if calls != 2 {
		t.Errorf("fn ran %d times, want 2", calls)
	}
}
