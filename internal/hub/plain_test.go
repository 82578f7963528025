package hub

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
)

// plainPlatform has the adapter contract and nothing more: no way of drawing runs of its own,
// no bot account, no groups. Its Surface keeps what people would see, by place; its Dialect
// writes markdown in capitals, so a text that went through the dialect is easy to tell.
type plainPlatform struct {
	mu   sync.Mutex
	next int
	msgs map[string]string // message id → text
	at   map[string]chat.Place
	seen []string // ids in the order they were posted
}

func (p *plainPlatform) Name() string                            { return "plat" }
func (p *plainPlatform) Start(context.Context, chat.Inbox) error { return nil }
func (p *plainPlatform) Stop(context.Context) error              { return nil }
func (p *plainPlatform) Surface() chat.Surface                   { return p }

func (p *plainPlatform) Directory() chat.Directory {
	return chat.Directory{Users: []chat.User{{ID: "U1", Username: "ada"}}}
}

func (p *plainPlatform) Dialect() chat.Dialect {
	return chat.Dialect{Format: strings.ToUpper, MaxText: 1000, Edit: true, Delete: true, Threads: chat.InThreads}
}

func (p *plainPlatform) Post(_ context.Context, at chat.Place, text string) (string, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.next++
	id := strconv.Itoa(p.next)
	if p.msgs == nil {
		p.msgs, p.at = map[string]string{}, map[string]chat.Place{}
	}
	p.msgs[id], p.at[id] = text, at
	p.seen = append(p.seen, id)
	return id, nil
}

func (p *plainPlatform) Edit(_ context.Context, at chat.Place, id, text string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.at[id] != at {
		return &wrongPlace{id}
	}
	p.msgs[id] = text
	return nil
}

func (p *plainPlatform) Delete(_ context.Context, at chat.Place, id string) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.at[id] != at {
		return &wrongPlace{id}
	}
	delete(p.msgs, id)
	return nil
}

func (p *plainPlatform) Upload(context.Context, chat.Place, chat.File) error { return nil }

type wrongPlace struct{ id string }

func (e *wrongPlace) Error() string { return "message " + e.id + " is not where the edit says" }

// shown returns the texts people see in channel C1, in the order they were posted, each
// prefixed with the thread it is in.
func (p *plainPlatform) shown() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var out []string
	for _, id := range p.seen {
		if text, ok := p.msgs[id]; ok && p.at[id].ChannelID == "C1" {
			out = append(out, p.at[id].ThreadOf+"|"+text)
		}
	}
	return out
}

// TestPlainAdapterWorks: an adapter with only the contract takes part fully. Its runs are
// drawn by the shared renderer on its Surface, in its Dialect, with the answer in place of the
// status message and in the thread the mention was made in; its notices go through the
// dialect too, and name the bot "mom", as nothing says otherwise; its directory reaches the
// agent.
func TestPlainAdapterWorks(t *testing.T) {
	t.Parallel()
	p := &plainPlatform{}
	r := newHubRigFull(t, config.AdapterEntry{DM: config.DMPolicy{Everyone: true}, Groups: open}, p, nil, Options{})
	release := make(chan struct{})
	r.runner.holdUntil(release)

	first := msg("1", "ada", "hello", true, false)
	first.ReplyTo = "T1"
	r.receive(t, first)
	r.runner.waitRuns(t, 1)
	r.receive(t, msg("2", "ada", "again", true, false))
	poll(t, "the busy notice", func() bool {
		return strings.Contains(strings.Join(p.shown(), "\n"), "|_ALREADY WORKING. SAY `@MOM STOP` TO CANCEL._")
	})
	close(release)
	r.idle(t)

	// The notice and the status message are posted from goroutines of their own, in
	// either order.
	if got := p.shown(); len(got) != 2 || !slices.Contains(got, "T1|_(NO ANSWER)_") {
		t.Errorf("shown = %q; want the run's answer in thread T1, in the dialect, and the notice", got)
	}
	if users := r.runner.requests()[0].Context.Users; len(users) != 1 || users[0].Username != "ada" {
		t.Errorf("the agent was told of %+v; want the adapter's directory", users)
	}
}
