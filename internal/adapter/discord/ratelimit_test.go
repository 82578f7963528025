package discord

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/disgoorg/disgo/rest"
)

func answer(status int, headers map[string]string) *http.Response {
	h := http.Header{}
	for k, v := range headers {
		h.Set(k, v)
	}
	return &http.Response{StatusCode: status, Header: h}
}

// TestBucketsHoldBackAUsedUpBucket: a request to a bucket with nothing left waits for its
// reset (or its context); other buckets, and the same route for another channel, do not.
func TestBucketsHoldBackAUsedUpBucket(t *testing.T) {
	l := newBuckets()
	post := rest.CreateMessage.Compile(nil, "111")
	other := rest.CreateMessage.Compile(nil, "222")
	ctx := context.Background()
	if err := l.Wait(ctx, post); err != nil {
		t.Fatal(err) // an unknown bucket goes at once
	}
	l.Unlock(post, answer(200, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "60"}))

	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := l.Wait(short, post); err == nil {
		t.Error("a used-up bucket let a request go before its reset")
	}
	if err := l.Wait(ctx, other); err != nil {
		t.Errorf("another channel's bucket was held back: %v", err)
	}

	l.Unlock(post, answer(200, map[string]string{"X-RateLimit-Remaining": "0", "X-RateLimit-Reset-After": "0.02"}))
	if err := l.Wait(ctx, post); err != nil {
		t.Errorf("the bucket did not open after its reset: %v", err)
	}

	l.Unlock(post, answer(429, map[string]string{"Retry-After": "60"}))
	short2, cancel2 := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel2()
	if err := l.Wait(short2, post); err == nil {
		t.Error("a 429's Retry-After did not hold the bucket back")
	}
}

// TestBucketsTakeTheLastRequestOnce: two requests that wait on a bucket with one request
// left do not both go.
func TestBucketsTakeTheLastRequestOnce(t *testing.T) {
	l := newBuckets()
	post := rest.CreateMessage.Compile(nil, "111")
	l.Unlock(post, answer(200, map[string]string{"X-RateLimit-Remaining": "1", "X-RateLimit-Reset-After": "60"}))
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	var wg sync.WaitGroup
	var mu sync.Mutex
	went := 0
	for range 2 {
		wg.Go(func() {
			if l.Wait(ctx, post) == nil {
				mu.Lock()
				went++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if went != 1 {
		t.Errorf("%d requests went on the bucket's last one", went)
	}
}
