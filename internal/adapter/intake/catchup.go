package intake

import (
	"context"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// atOnce is how many channels CatchUp reads at the same time (see CatchUp).
const atOnce = 4

// CatchUp reads back, at start, what was said while mom was stopped in every channel of one
// adapter that has a log, from the newest logged message on, and logs it in order, once (the
// spec's "backfill"). The hub sees these messages as history, as they are older than the
// start, so none of them starts a run. The adapter supplies Open and the History it returns:
// how to read its platform's history a page at a time, and how to turn a message into a
// chat.Message. The rest is here:
//
//   - Order and dedup against the log: a channel's own messages and its threads' replies are
//     merged, each kept once (a message the platform lists both in the channel and in a
//     thread), oldest first; what was said before the newest logged message, or is that
//     message, is left out; a message the live intake has logged already is skipped (the
//     Gate's Seen), and the hub drops one already in the log. A message the live intake has
//     taken but not logged yet waits behind the catch-up on the channel's lane, so the
//     catch-up logs it in its place, in order, and the live delivery only acknowledges it:
//     skipping it would let the newer messages read back overtake it (a question asked while
//     mom was away logged after one asked just after the restart, and so missing from the
//     context of that one's run). One taken on another lane (a thread whose channel the
//     adapter did not know yet) may be logged there at this moment, and is left to it.
//   - Bounds: Bounds says how much of a channel is read back; what is left out is reported
//     in the log.
//   - Concurrency, one rule for every platform: each channel's catch-up is one job on that
//     channel's lane of the Gate, queued (Queue) before the platform connection opens, so
//     every live message of the channel waits behind it and the log keeps the platform's
//     order: nothing said live is logged before what was said earlier while mom was away.
//     Channels are read in parallel, at most atOnce at a time. Why: platforms rate-limit
//     history reads per workspace or per route (some allow an app one history call a
//     minute), so reading every channel at once only collects 429s and can
//     exhaust the retries, while one channel at a time would keep a quiet channel's live
//     messages waiting for every busier channel's history. The mark a channel is caught up
//     from (its newest logged message) is read when Queue is called, before anything can be
//     logged live, so a live message or a wake-up's reply logged meanwhile cannot hide what
//     was missed before it.
type CatchUp[M any] struct {
	// Gate is the adapter's live intake: its lanes order the channels, its dedup set drops
	// what comes both ways, its adapter name picks the channels.
	Gate *Gate
	// Store tells which channels have a log, and where each one ends; nil: nothing to catch
	// up on.
	Store *store.Store
	// Bounds limit how much of each channel is read back.
	Bounds Bounds
	// Open looks up a channel mom has a log for, before its history is read. An error (the
	// channel is gone, or mom may no longer read it) skips the channel with a warning.
	Open func(ctx context.Context, channel string) (History[M], error)
}

// History is one channel's history on a platform, open for catching up. M is the platform's
// message type.
type History[M any] interface {
	// Page reads one page of what was said after `after` in the channel itself (thread "") or
	// in one of its threads, in the order the platform pages: the messages and the cursor of
	// the next page, "" after the last. cursor is "" for the first page. Only messages said
	// after `after` count (its ID and TS are set): the newest logged message, or for threads
	// of a channel cut at its bound (Bounds.ThreadsWithinKept) the oldest message kept.
	Page(ctx context.Context, thread string, after chat.Message, cursor string) (msgs []M, next string, err error)
	// Threads lists the threads that may hold replies said after `after`, the likeliest
	// first; own is what the channel's own history held. It reports its own failures.
	Threads(ctx context.Context, own []M, after chat.Message) []string
	// Stamp says which message m is and when it was said.
	Stamp(m M) Stamp
	// Convert turns m into the message to log, downloading its files (Delivery.Convert).
	Convert(ctx context.Context, m M) (msg chat.Message, ok bool, err error)
}

// Stamp identifies a platform message for ordering and dedup.
type Stamp struct {
	// Key is the key the live intake takes the message by (Delivery.Key).
	Key string
	// ID is the platform's id of the message, as logged (chat.Message.ID).
	ID string
	// At is when it was said. Messages said in the same instant are ordered by ID, shorter
	// first, then as text: ids that grow with time (decimal timestamps, snowflakes) sort
	// that way.
	At time.Time
}

// mark is where one channel's catch-up starts.
type mark struct {
	channel string
	last    chat.Message // the newest logged message
}

// Queue puts a catch-up on the lane of every channel of the adapter that has a log, where it
// waits until start is called. Call Queue before the platform connection opens, so that every
// live message queues behind its channel's catch-up, and start once the connection is open, so
// that nothing said in between is missed. Until start is called or ctx ends, the channels'
// lanes are held.
func (c *CatchUp[M]) Queue(ctx context.Context, in chat.Inbox) (start func()) {
	begin := make(chan struct{})
	slots := make(chan struct{}, atOnce)
	for _, mk := range c.marks() {
		c.Gate.Lanes.Run(mk.channel, func() {
			select {
			case <-begin:
			case <-ctx.Done():
				return
			}
			select {
			case slots <- struct{}{}:
			case <-ctx.Done():
				return
			}
			defer func() { <-slots }()
			n, err := c.channel(ctx, in, mk)
			switch {
			case err != nil:
				c.Gate.Log.Warn("could not catch up on a channel", "channel", mk.channel, "err", err)
			case n > 0:
				c.Gate.Log.Info("caught up on a channel", "channel", mk.channel, "messages", n)
			}
		})
	}
	var once sync.Once
	return func() { once.Do(func() { close(begin) }) }
}

// marks lists the adapter's channels that have a log, with the newest logged message of each.
func (c *CatchUp[M]) marks() []mark {
	if c.Store == nil {
		return nil
	}
	refs, err := c.Store.Channels()
	if err != nil {
		c.Gate.Log.Warn("could not list channels to catch up on", "err", err)
		return nil
	}
	var out []mark
	for _, ref := range refs {
		if ref.Adapter != c.Gate.Adapter {
			continue
		}
		ch, err := c.Store.ChannelDir(ref.Adapter, ref.ID)
		var last chat.Message
		var ok bool
		if err == nil {
			last, ok, err = ch.LastMessage()
		}
		if err != nil {
			c.Gate.Log.Warn("could not catch up on a channel", "channel", ref.ID, "err", err)
			continue
		}
		if ok {
			out = append(out, mark{ref.ID, last})
		}
	}
	return out
}

// channel catches up on one channel; it runs on the channel's lane. It returns how many
// messages it handed to the hub.
func (c *CatchUp[M]) channel(ctx context.Context, in chat.Inbox, mk mark) (int, error) {
	h, err := c.Open(ctx, mk.channel)
	if err != nil {
		return 0, err
	}
	msgs, err := c.read(ctx, h, mk)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, m := range msgs {
		// The lane is this job's, so the message is handed over here rather than queued.
		_, err := c.Gate.Seen.HandleAhead(h.Stamp(m).Key, mk.channel, func() error {
			logged, err := c.Gate.receive(ctx, in, func(ctx context.Context) (chat.Message, bool, error) { return h.Convert(ctx, m) })
			if logged && err == nil {
				n++
			}
			return err
		})
		if err != nil {
			return n, err
		}
	}
	return n, nil
}
