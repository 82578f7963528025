package chat

import (
	"errors"
	"slices"
	"sync/atomic"
	"testing"
)

func TestAskAll(t *testing.T) {
	var running, most atomic.Int32
	ask := func(k int) ([]string, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for {
			m := most.Load()
			if n <= m || most.CompareAndSwap(m, n) {
				break
			}
		}
		if k%3 == 0 {
			return nil, errors.New("unreachable")
		}
		return []string{string(rune('a' + k))}, nil
	}
	var failed []int
	ids, err := AskAll([]int{1, 2, 3, 4, 5, 6, 7}, 2, ask, func(k int, _ error) { failed = append(failed, k) })
	if err != nil || !slices.Equal(ids, []string{"b", "c", "e", "f", "h"}) || !slices.Equal(failed, []int{3, 6}) {
		t.Errorf("ids %v, failed %v, err %v; want the answers in key order and 3, 6 reported", ids, failed, err)
	}
	if most.Load() > 2 {
		t.Errorf("%d asks ran at once, limit 2", most.Load())
	}

	ids, err = AskAll([]int{3, 6}, 2, ask, func(int, error) {})
	if err == nil || ids != nil {
		t.Errorf("every ask failed: ids %v, err %v; want an error", ids, err)
	}
	if ids, err := AskAll(nil, 2, ask, func(int, error) {}); err != nil || ids != nil {
		t.Errorf("no keys: ids %v, err %v", ids, err)
	}
}
