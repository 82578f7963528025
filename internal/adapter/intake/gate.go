// Package intake is how a platform's messages enter mom, written once for every adapter: the
// live ones as the platform delivers them (Gate), and those said while mom was stopped, read
// back at start (CatchUp). An adapter supplies only what is its platform's: the id a message
// is known by, how to fetch a page of history, and how to turn a platform message into a
// chat.Message.
package intake

import (
	"context"
	"errors"
	"log/slog"

	"github.com/mom-agent/mom/internal/chat"
)

// remember is how many messages a Gate remembers having taken, to drop redeliveries.
// Platforms redeliver unacknowledged events within minutes, or replay a session's last events
// when it resumes; a few thousand covers a busy workspace's minutes.
const remember = 4096

// ErrHeldBack is what a Delivery's Convert returns when the adapter does not want the message
// logged yet, though nothing failed: an adapter that takes messages in batches holds back a
// chat's later messages in a batch after one of them could not be logged, so that all of
// them come again in order. The
// delivery is released and nacked like a failed one, without a warning.
var ErrHeldBack = errors.New("held back until an earlier message is logged")

// Gate hands the messages a platform delivers live to the hub (the spec's
// PlatformAdapter → MomAgent.handleMessage step), with these guarantees:
//
//   - A delivery is acknowledged only after its message is in log.jsonl (the hub's Receive
//     returns once the line is written), so a crash before that makes the platform deliver
//     it again, and nothing acknowledged is ever lost.
//   - When logging fails, the delivery is not acknowledged (Nack) and forgotten, so the
//     platform's next delivery of it is taken afresh.
//   - A redelivery of a message taken before is logged once: one already logged is
//     acknowledged at once and dropped; one that comes while the first delivery is still
//     being handled waits for it and is acknowledged (or nacked) with it. Across a restart
//     the hub drops a message that is in the log already.
//   - Messages of one channel (Delivery.Lane) reach the hub one at a time, in the order the
//     platform delivered them; channels are handled in parallel, so one slow download holds
//     up neither other channels nor the platform connection.
//
// Build one with NewGate; the zero value is not usable.
type Gate struct {
	// Adapter is the adapter's name, as the hub and the channel directories know it.
	Adapter string
	// Platform names the platform in the log, as people know it.
	Platform string
	// Log receives the messages that could not be logged.
	Log *slog.Logger
	// Seen remembers the messages taken, live or caught up.
	Seen *chat.Dedup
	// Lanes keep each channel's messages in order; Stop waits for them.
	Lanes *chat.Lanes
}

// NewGate returns the gate of the named adapter of a platform.
func NewGate(adapter, platform string, log *slog.Logger) *Gate {
	return &Gate{Adapter: adapter, Platform: platform, Log: log, Seen: chat.NewDedup(remember), Lanes: chat.NewLanes()}
}

// Delivery is one delivery of a platform message.
type Delivery struct {
	// Key is the id the platform's redeliveries of the message repeat, with the channel in it
	// where an id is unique only in its channel ("C123/1700000000.000100"). CatchUp claims
	// caught-up messages by
	// the same key, so a message that comes both ways is logged once.
	Key string
	// Lane is the channel whose order the message keeps: the channel it is logged in.
	Lane string
	// Convert turns the platform's message into the one to log, downloading its files; ok
	// false means there is nothing to log (no text, no file) and the delivery is done. It runs
	// on the lane, so it may take its time.
	Convert func(ctx context.Context) (m chat.Message, ok bool, err error)
	// Ack acknowledges the delivery to the platform; nil when the platform takes none.
	Ack func()
	// Nack is called instead of Ack when the message could not be logged, or was held back;
	// nil when the adapter need not know. Exactly one of Ack and Nack is called for every
	// delivery, once the outcome is known.
	Nack func()
}

// Take hands one delivery to the hub in, in the order the guarantees above describe: claim
// the key, queue on the lane, convert, receive (log first), then acknowledge, or release the
// key and nack. It returns at once; the work happens on the lane.
func (g *Gate) Take(ctx context.Context, in chat.Inbox, d Delivery) {
	ack, nack := orNothing(d.Ack), orNothing(d.Nack)
	switch g.Seen.ClaimIn(d.Key, d.Lane, ack, nack) {
	case chat.ClaimDone:
		ack()
		return
	case chat.ClaimBusy:
		return // acknowledged or nacked with the first delivery
	}
	g.Lanes.Run(d.Lane, func() {
		if g.Seen.Handled(d.Key) {
			ack() // a catch-up ahead of it on the lane logged it, in order (CatchUp)
			return
		}
		if _, err := g.receive(ctx, in, d.Convert); err != nil {
			g.Seen.Release(d.Key)
			if !errors.Is(err, ErrHeldBack) {
				g.failed(d, err)
			}
			nack()
			return
		}
		g.Seen.Done(d.Key)
		ack()
	})
}

// receive converts a message and hands it to the hub; it returns once the message is
// logged, and whether there was anything to log.
func (g *Gate) receive(ctx context.Context, in chat.Inbox, convert func(context.Context) (chat.Message, bool, error)) (logged bool, err error) {
	m, ok, err := convert(ctx)
	if err != nil || !ok {
		return false, err
	}
	return true, in.Receive(ctx, g.Adapter, m)
}

// failed reports a message that could not be logged, and whether the platform will bring it
// again: one that takes acknowledgements does, as it was not acknowledged.
func (g *Gate) failed(d Delivery, err error) {
	msg := "could not log a " + g.Platform + " message"
	if d.Ack != nil || d.Nack != nil {
		msg += "; " + g.Platform + " will deliver it again"
	}
	g.Log.Warn(msg, "channel", d.Lane, "err", err)
}

func orNothing(fn func()) func() {
	if fn == nil {
		return func() {}
	}
	return fn
}
