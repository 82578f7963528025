package web

import (
	"context"
	"errors"
	"strings"
	"sync"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/chat"
)

// A request for approval (approval_start) is a card with the three buttons; a press goes to
// the hub as an Answer from the person the page is named for, and the card then says who
// decided. A request that ends otherwise (a typed answer, the timeout, stop) closes its card
// at approval_end with the outcome.

// asks maps a run's requests to their cards.
type asks struct {
	mu     sync.Mutex
	cardOf map[string]string // request id → card id
}

// ask shows req in channel as a card whose buttons answer it.
func (r *reply) ask(req approval.Request) {
	q := req.Question()
	// The request's first line is its title: the card shows it as one.
	first, rest, _ := strings.Cut(req.Text, "\n")
	c := card{Title: "Approval needed: " + strings.TrimPrefix(first, "**Approval needed:** "), Text: rest + "\n\n" + req.Hint}
	for _, ch := range q.Choices {
		c.Buttons = append(c.Buttons, button{ID: ch.Value, Label: ch.Label, Style: ch.Style})
	}
	a, channel := r.a, r.channel
	id := a.showCard(channel, c, func(who chat.User, choice string) (string, error) {
		a.mu.Lock()
		in := a.in
		a.mu.Unlock()
		if in == nil {
			return "", errors.New("mom is not running")
		}
		if msg := in.Answer(context.Background(), a.Name(), chat.Answer{Question: req.ID, Choice: choice, ChannelID: channel, User: who}); msg != "" {
			return "", errors.New(msg)
		}
		return approval.Outcome(choice, &who, 0), nil
	})
	r.asks.mu.Lock()
	if r.asks.cardOf == nil {
		r.asks.cardOf = map[string]string{}
	}
	r.asks.cardOf[req.ID] = id
	r.asks.mu.Unlock()
}

// settle closes the card of req with its outcome, when no press closed it already.
func (r *reply) settle(req approval.Request) {
	r.asks.mu.Lock()
	id := r.asks.cardOf[req.ID]
	delete(r.asks.cardOf, req.ID)
	r.asks.mu.Unlock()
	if id != "" {
		r.a.closeCard(id, req.Outcome)
	}
}
