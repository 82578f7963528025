package intake

import (
	"cmp"
	"context"
	"slices"

	"github.com/mom-agent/mom/internal/chat"
)

// Bounds limit how much of one channel CatchUp reads back. Messages and pages are counted in
// the order the platform pages, so which end of a long backlog is kept is the end the
// platform starts from: a platform that pages a channel from its newest message back keeps
// the newest, one that pages a thread from its oldest reply on keeps the oldest.
type Bounds struct {
	// Channel bounds the channel's own history.
	Channel Limit
	// Thread bounds each of its threads.
	Thread Limit
	// Threads bounds all of its threads together; once it is reached, the remaining threads
	// are not read.
	Threads Limit
	// ThreadsWithinKept: when the channel's own history was cut at its bound, replies older
	// than the oldest message kept are left out too, so the log has one gap before the kept
	// part instead of replies scattered in it. Without it each thread keeps what its own
	// bound keeps.
	ThreadsWithinKept bool
}

// Limit bounds one read of history; 0 means no bound.
type Limit struct {
	// Messages is how many messages are kept at most.
	Messages int
	// Pages is how many calls are made at most (a platform may hand out pages smaller than
	// asked for).
	Pages int
}

// read fetches what was said in a channel after its mark: its own messages, then its threads'
// replies, merged oldest first, each once.
func (c *CatchUp[M]) read(ctx context.Context, h History[M], mk mark) ([]M, error) {
	own, complete, _, err := pages(ctx, h, "", mk.last, c.Bounds.Channel)
	if err != nil {
		return nil, err
	}
	after := mk.last
	if !complete {
		c.Gate.Log.Warn("more was said while mom was away than it catches up on; the older part is not in the log",
			"channel", mk.channel, "caught up", len(own))
		if c.Bounds.ThreadsWithinKept && len(own) > 0 {
			s := slices.MinFunc(own, func(x, y M) int { return compareStamps(h.Stamp(x), h.Stamp(y)) })
			after = chat.Message{ID: h.Stamp(s).ID, TS: h.Stamp(s).At}
		}
	}
	replies := c.threads(ctx, h, mk.channel, h.Threads(ctx, own, after), after)
	return merge(h, mk.last, append(own, replies...)), nil
}

// threads reads the replies said after `after` in each thread, within Bounds.Thread for
// each and Bounds.Threads for all. A thread that cannot be read is skipped with a warning,
// so one deleted thread does not hide the rest.
func (c *CatchUp[M]) threads(ctx context.Context, h History[M], channel string, threads []string, after chat.Message) []M {
	var out []M
	used := 0 // pages, of all threads
	full := func() []M {
		c.Gate.Log.Warn("more was said in threads while mom was away than it catches up on; the rest is not in the log",
			"channel", channel, "caught up", len(out))
		return out
	}
	for _, th := range threads {
		lim, ok := c.Bounds.next(len(out), used)
		if !ok {
			return full()
		}
		got, complete, n, err := pages(ctx, h, th, after, lim)
		out = append(out, got...)
		used += n
		switch {
		case ctx.Err() != nil:
			return out
		case err != nil:
			c.Gate.Log.Warn("could not catch up on a thread", "channel", channel, "thread", th, "err", err)
		case complete:
		case !c.Bounds.left(len(out), used):
			return full()
		default:
			c.Gate.Log.Warn("more was said in a thread while mom was away than it catches up on; the rest is not in the log",
				"channel", channel, "thread", th, "caught up", len(got))
		}
	}
	return out
}

// left says whether Bounds.Threads leaves room after msgs messages in pages calls.
func (b Bounds) left(msgs, pages int) bool {
	_, ok := b.next(msgs, pages)
	return ok
}

// next is the bound of the next thread to read when the threads read so far kept msgs
// messages in pages calls: Bounds.Thread, tightened to what is left of Bounds.Threads. ok is
// false when nothing is left.
func (b Bounds) next(msgs, pages int) (lim Limit, ok bool) {
	lim = b.Thread
	if all := b.Threads.Messages; all > 0 {
		if msgs >= all {
			return lim, false
		}
		lim.Messages = tighter(lim.Messages, all-msgs)
	}
	if all := b.Threads.Pages; all > 0 {
		if pages >= all {
			return lim, false
		}
		lim.Pages = tighter(lim.Pages, all-pages)
	}
	return lim, true
}

// tighter is the smaller of two bounds, where 0 means none.
func tighter(a, b int) int {
	if a == 0 {
		return b
	}
	return min(a, b)
}

// pages reads a channel's own history (thread "") or a thread's, page after page, until the
// last page or lim: what it read in the platform's order, whether that was all, and how many
// pages it took.
func pages[M any](ctx context.Context, h History[M], thread string, after chat.Message, lim Limit) (msgs []M, complete bool, n int, err error) {
	cursor := ""
	for lim.Pages == 0 || n < lim.Pages {
		got, next, err := h.Page(ctx, thread, after, cursor)
		n++
		if err != nil {
			return msgs, false, n, err
		}
		msgs = append(msgs, got...)
		if lim.Messages > 0 && len(msgs) > lim.Messages {
			return msgs[:lim.Messages], false, n, nil
		}
		if next == "" {
			return msgs, true, n, nil
		}
		if lim.Messages > 0 && len(msgs) == lim.Messages {
			return msgs, false, n, nil
		}
		cursor = next
	}
	return msgs, false, n, nil
}

// merge puts msgs in the order they were said, each once (the first of a key is kept), and
// leaves out the newest logged message and what was said before it.
func merge[M any](h History[M], last chat.Message, msgs []M) []M {
	seen := make(map[string]bool, len(msgs))
	msgs = slices.DeleteFunc(msgs, func(m M) bool {
		s := h.Stamp(m)
		dup := seen[s.Key]
		seen[s.Key] = true
		return dup || s.ID == last.ID || s.At.Before(last.TS)
	})
	slices.SortStableFunc(msgs, func(x, y M) int { return compareStamps(h.Stamp(x), h.Stamp(y)) })
	return msgs
}

// compareStamps orders messages by when they were said, then by id (Stamp.At).
func compareStamps(x, y Stamp) int {
	return cmp.Or(x.At.Compare(y.At), cmp.Compare(len(x.ID), len(y.ID)), cmp.Compare(x.ID, y.ID))
}
