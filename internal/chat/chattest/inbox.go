// Package chattest holds test helpers for adapters: what stands in for mom's hub when an
// adapter is tested on its own against a platform's fake.
package chattest

import (
	"context"
	"sync"

	"github.com/mom-agent/mom/internal/chat"
)

// Inbox is a chat.Inbox that records the messages an adapter hands to it, in order.
type Inbox struct {
	mu      sync.Mutex
	msgs    []chat.Message
	answers []chat.Answer
}

var _ chat.Inbox = (*Inbox)(nil)

// Receive records m.
func (in *Inbox) Receive(_ context.Context, _ string, m chat.Message) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.msgs = append(in.msgs, m)
	return nil
}

// All returns the messages received so far.
func (in *Inbox) All() []chat.Message {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]chat.Message(nil), in.msgs...)
}

// Answer records a and takes it.
func (in *Inbox) Answer(_ context.Context, _ string, a chat.Answer) string {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.answers = append(in.answers, a)
	return ""
}

// Answers returns the answers received so far.
func (in *Inbox) Answers() []chat.Answer {
	in.mu.Lock()
	defer in.mu.Unlock()
	return append([]chat.Answer(nil), in.answers...)
}
