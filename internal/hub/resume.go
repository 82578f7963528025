package hub

import (
	"context"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// What a restart leaves behind, and how the hub finishes it (the README's "Restarts"):
//
//   - Every run is noted in its channel's run journal (store.RunEntry): a queued line when a
//     person's trigger is taken, before the platform hears it was received; a start line,
//     with its trigger, before the status message is posted; a status line once it is
//     posted; an end line when the run is over. A run mom's own shutdown aborts gets no end
//     line, like one mom was killed in, and neither do the triggers still waiting.
//   - At start-up, once the adapters are connected, Resume looks at each channel's runs that
//     did not end (usually its last; more when a mom was killed again before it got to them)
//     and at the triggers that waited behind them: a recent one is answered late, in its turn.
//     One that did not end is run again from its trigger if the trigger is recent and it was
//     tried fewer than maxAttempts times, writing in the status message it left (where the
//     platform can edit) "_Restarted — working on it again…_". Its start line counts the
//     attempt, so a mom killed again during that run does not try a third time: the next
//     one gives up and says so in place of the status. An older run has its status message
//     edited to say it was interrupted and to ask again. A status message that mom was
//     killed in the act of posting (the platform has it, the journal no id) is looked for
//     on platforms that let the bot read back its messages (findStatus); elsewhere (Telegram)
//     it stays as it was, and the run, done again, posts a new one.
//   - A mention or DM sent while mom was down or starting reaches the hub through the
//     adapters' catch-up or the platform's redelivery, as a message from before start-up.
//     One that is recent is answered once (answerLate), in its channel's order; one already
//     in the log (logged by the mom before, then sent again) never reaches this far.

// maxAttempts is how many times a trigger is run when restarts keep interrupting it: once,
// and once again after a restart. A trigger that is itself what kills mom (a command that
// exhausts memory) must not crash it for ever.
const maxAttempts = 2

// maxLate is how many late triggers (answerLate) may wait in one channel; more stay in the
// log as context for the runs that are answered.
const maxLate = 20

// The status texts of runs a restart interrupted.
const (
	restartedStatus = "_Restarted — working on it again…_"
	askAgainStatus  = "_I was interrupted by a restart while working on this. Please ask again._"
	gaveUpStatus    = "_Sorry: restarts interrupted me twice while I was working on this, so I have stopped. Please ask again._"
	wakeUpStopped   = "_Interrupted by a restart._"
)

// recent reports whether something sent at ts is recent enough to be done after a restart.
func (h *Hub) recent(ts time.Time) bool {
	return h.resumeWithin > 0 && time.Since(ts) <= h.resumeWithin
}

// journal appends e to ch's run journal. A failure is logged, not returned: the run goes on,
// and only what a restart in the middle of it would do is lost.
func (h *Hub) journal(ch *store.ChannelDir, e store.RunEntry) {
	if err := ch.JournalRun(e); err != nil {
		h.log.Warn("could not note the run in its journal", "channel", ch.Key(), "err", err)
	}
}

// startEntry is the journal's start line for j.
func (h *Hub) startEntry(j job) store.RunEntry {
	trigger := j.msg
	e := store.RunEntry{Type: store.RunStart, Run: trigger.ID, Trigger: &trigger, Attempt: max(j.attempt, 1), LogEnd: j.logEnd}
	if j.reuse != "" {
		e.Status, e.StatusAt = j.reuse, &j.reuseAt
	}
	return e
}

// journalQueued notes that a person's trigger was taken, so that a restart before its run
// starts does not lose it. A wake-up is not noted: its file stays until it has run. Nor is a
// run started again, which has its start line already.
func (h *Hub) journalQueued(j job) {
	if j.wakeUp || j.attempt > 1 || j.control != nil {
		return
	}
	trigger := j.msg
	h.journal(j.ch, store.RunEntry{Type: store.RunQueued, Run: trigger.ID, Trigger: &trigger, LogEnd: j.logEnd})
}

// journalDropped notes that a person's trigger was dropped from its queue by `stop`, so that
// a restart does not run it.
func (h *Hub) journalDropped(j job) {
	if !j.wakeUp {
		h.journal(j.ch, store.RunEntry{Type: store.RunEnd, Run: j.msg.ID, Reason: "stopped"})
	}
}

// answerLate queues a trigger sent while mom was down or starting behind its channel's runs,
// whatever the busy policy: it was never refused, and is answered in its turn.
func (h *Hub) answerLate(j job) {
	j.waited = true
	key := j.ch.Key()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return
	}
	if q, ok := h.queues[key]; ok {
		late := 0
		for _, w := range q.jobs {
			if w.waited {
				late++
			}
		}
		if late >= maxLate {
			h.log.Info("too many messages waited for mom in this channel; this one stays as context", "channel", key, "id", j.msg.ID)
			return
		}
	}
	h.log.Info("answering a message sent while mom was not running", "channel", key, "id", j.msg.ID,
		"sent", time.Since(j.msg.TS).Round(time.Second))
	h.enqueueLocked(key, j)
}

// Resume finishes the runs the last mom left unfinished in the named adapter's channels, as
// the comment above says. Call it once per adapter, as soon as the adapter is connected:
// its catch-up is then still reading what was said meanwhile, which is newer than these
// runs' triggers and queues behind them. The runs it starts again go through the channels'
// queues like any other.
func (h *Hub) Resume(ctx context.Context, adapter string) {
	h.closeRequests(ctx, adapter)
	for _, u := range h.left.of(h, adapter) {
		h.resume(ctx, u)
	}
}

// leftRuns is what the run journals left unfinished, by adapter. Every journal is read once,
// at the first Resume, as it was when mom started; each adapter's Resume takes its share.
type leftRuns struct {
	once      sync.Once
	byAdapter map[string][]store.UnfinishedRun
}

// of returns the unfinished runs of adapter's channels, reading the journals the first time.
func (l *leftRuns) of(h *Hub, adapter string) []store.UnfinishedRun {
	l.once.Do(func() {
		runs, err := h.store.UnfinishedRuns(time.Now().Add(-h.resumeWithin), h.started)
		if err != nil {
			h.log.Warn("could not read every run journal; some interrupted runs are not finished", "err", err)
		}
		l.byAdapter = make(map[string][]store.UnfinishedRun)
		for _, u := range runs {
			l.byAdapter[u.Adapter] = append(l.byAdapter[u.Adapter], u)
		}
	})
	return l.byAdapter[adapter]
}

// resume finishes one unfinished run.
func (h *Hub) resume(ctx context.Context, u store.UnfinishedRun) {
	mem, err := h.member(u.Adapter, "interrupted run")
	if err != nil {
		// An adapter no longer configured, or `mom run`'s, which is never resumed.
		h.log.Debug("an interrupted run is left as it is", "adapter", u.Adapter, "channel", u.ChannelID, "err", err)
		return
	}
	ch, err := h.store.ChannelDir(u.Adapter, u.ChannelID)
	if err != nil {
		h.log.Warn("an interrupted run is left as it is", "adapter", u.Adapter, "channel", u.ChannelID, "err", err)
		return
	}
	trigger := *u.Start.Trigger
	trigger.ChannelID = u.ChannelID
	log := h.log.With("channel", ch.Key(), "id", trigger.ID, "attempt", u.Start.Attempt)
	if u.Started && u.Status == "" {
		h.findStatus(ctx, mem, ch, trigger, &u)
	}
	switch {
	case !u.Started && trigger.WakeUpFile() == "" && h.recent(trigger.TS):
		log.Info("answering a message that waited for a run when mom stopped")
		j := job{mem: mem, ch: ch, msg: trigger, logEnd: u.Start.LogEnd, attempt: 1, waited: true}
		h.mu.Lock()
		if !h.closed {
			h.enqueueLocked(ch.Key(), j)
		}
		h.mu.Unlock()
		return
	case !u.Started:
		// Too old to answer now: it stays in the log, as context for the next run.
	case trigger.WakeUpFile() != "":
		// The events watcher runs a wake-up file again while it is there; only its status
		// message is left to finish.
		log.Info("a wake-up's run was interrupted by a restart")
		h.finishStatus(ctx, mem, trigger, u, wakeUpStopped, false)
	case !h.recent(trigger.TS):
		log.Info("a run interrupted by a restart is too old to do again; asking to ask again")
		h.finishStatus(ctx, mem, trigger, u, askAgainStatus, false)
	case u.Start.Attempt >= maxAttempts:
		log.Warn("restarts interrupted a run twice; giving up")
		h.finishStatus(ctx, mem, trigger, u, gaveUpStatus, true)
	default:
		log.Info("starting a run again that a restart interrupted")
		j := job{mem: mem, ch: ch, msg: trigger, logEnd: u.Start.LogEnd, attempt: u.Start.Attempt + 1,
			reuse: u.Status, reuseAt: u.StatusAt, waited: true}
		h.mu.Lock()
		if !h.closed {
			h.enqueueLocked(ch.Key(), j)
		}
		h.mu.Unlock()
		return
	}
	h.journal(ch, store.RunEntry{Type: store.RunEnd, Run: trigger.ID, Reason: "interrupted"})
}

// finishStatus writes md in place of an interrupted run's status message, where the platform
// can edit and one was posted; else, when post is set, it posts md as a notice. An adapter
// that draws runs itself (Replier: the web chat, the terminal) has no status message that
// outlives the mom that drew it, so md is always posted there: nothing else would say what
// became of the run.
func (h *Hub) finishStatus(ctx context.Context, mem *member, trigger chat.Message, u store.UnfinishedRun, md string, post bool) {
	d := mem.Dialect()
	_, own := mem.Adapter.(Replier)
	post = post || own
	if !own && u.Status != "" && d.Edit {
		text := md
		if d.Format != nil {
			text = d.Format(md)
		}
		err := mem.Surface().Edit(ctx, u.StatusAt, u.Status, text)
		if err == nil {
			return
		}
		h.log.Warn("could not update the status message of an interrupted run", "channel", trigger.ChannelID, "err", err)
	}
	if post {
		h.post(ctx, mem, trigger, md)
	}
}
