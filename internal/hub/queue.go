package hub

import (
	"context"
	"log/slog"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/store"
)

// job is one run waiting for its channel.
type job struct {
	mem *member
	ch  *store.ChannelDir
	msg chat.Message
	// logEnd is the log offset just past the trigger (see agent.Request.LogEnd).
	logEnd int64
	// wakeUp marks a wake-up (package events), which counts against caps of its own
	// (maxQueuedWakeUps in its channel, the wake-ups' share of the run slots across
	// channels); done, if set, is called once the job has run or was dropped.
	wakeUp bool
	done   func()
	// attempt counts the runs of this trigger (the run journal): 1, or 2 for a run started
	// again after a restart, which shows itself in reuse, the status message of the attempt
	// before (ReuseAt its place; "" when there is none to reuse).
	attempt int
	reuse   string
	reuseAt chat.Place
	// waited says the trigger was sent while mom was down or starting, and is answered late.
	waited bool
	// control, when set, is done in the job's turn instead of a run: a chat command that must
	// not overlap the channel's runs (/new, /compact).
	control func(ctx context.Context)
}

// queue is a channel's line of runs. It exists while the channel has a run going or waiting;
// its worker goroutine removes it when the line is empty.
type queue struct {
	jobs []job
	// slot is jobs[0]'s claim on a run slot (slots.go), taken when it became first; nil when
	// there are no jobs.
	slot *ticket
}

// waitsForSlot reports whether the channel's first run waits for a free slot.
func (q *queue) waitsForSlot() bool {
	return q.slot != nil && !q.slot.granted()
}

// trigger starts j now when its channel is free, and otherwise applies the adapter's busy
// policy.
func (h *Hub) trigger(mem *member, ch *store.ChannelDir, j job) {
	key := ch.Key()
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return
	}
	q, exists := h.queues[key]
	// Busy means a run is in progress, waits for a free slot, or another trigger waits. A run
	// that has ended but is still finishing its reply, or one about to start, takes j next
	// without a fuss.
	if !exists || (len(q.jobs) <= 1 && !q.waitsForSlot() && !h.runner.IsRunning(key)) {
		h.enqueueLocked(key, j)
		h.mu.Unlock()
		return
	}
	policy := mem.cfg.Busy
	if policy == config.BusySteer && q.waitsForSlot() {
		// A run that has not started cannot take a message at its next step; this one gets a
		// run of its own after it, as in queue mode.
		policy = config.BusyQueue
	}
	switch policy {
	case config.BusyQueue:
		if len(q.jobs)-1 >= maxQueued { // jobs[0] is the run in progress
			h.mu.Unlock()
			h.busy(mem, j, "full")
			h.notice(mem, j.msg, "_Too many messages are waiting already; I'll see this one with the next run._")
			return
		}
		q.jobs = append(q.jobs, j)
		h.journalQueued(j)
		h.mu.Unlock()
		h.busy(mem, j, string(config.BusyQueue))
		h.notice(mem, j.msg, "_Queued: I'll get to this when I'm done._")
	case config.BusySteer:
		h.mu.Unlock()
		if h.runner.Steer(key, j.msg) {
			h.busy(mem, j, string(config.BusySteer))
			h.notice(mem, j.msg, "_Noted: I'll take this into account at my next step._")
			return
		}
		// The run ended between the check and the handover: queue it like any other.
		h.mu.Lock()
		if !h.closed {
			h.enqueueLocked(key, j)
		}
		h.mu.Unlock()
	default:
		h.mu.Unlock()
		h.busy(mem, j, string(config.BusyReject))
		hint := "Say `" + stopHint(mem, j.msg) + "` to cancel."
		if b, ok := mem.Adapter.(StopButton); ok {
			hint = b.StopHint()
		}
		h.notice(mem, j.msg, "_Already working. "+hint+"_")
	}
}

// enqueueLocked adds j to key's line, starting a worker when there is none. h.mu is held.
func (h *Hub) enqueueLocked(key string, j job) {
	h.journalQueued(j)
	if q, ok := h.queues[key]; ok {
		q.jobs = append(q.jobs, j)
		if len(q.jobs) == 1 { // its worker is about to look for more
			q.slot = h.slots.take(j.wakeUp)
		}
		return
	}
	if len(h.queues) == 0 {
		h.idle = make(chan struct{})
	}
	h.queues[key] = &queue{jobs: []job{j}, slot: h.slots.take(j.wakeUp)}
	h.wg.Add(1)
	go h.work(key)
}

// work runs a channel's jobs one after another until none is left, each in a slot of its own.
func (h *Hub) work(key string) {
	defer h.wg.Done()
	for {
		h.mu.Lock()
		q := h.queues[key]
		if q == nil || len(q.jobs) == 0 {
			if q != nil && q.slot != nil {
				h.slots.leave(q.slot) // Shutdown dropped the jobs before this worker saw them
			}
			delete(h.queues, key)
			if len(h.queues) == 0 && h.idle != nil {
				close(h.idle)
				h.idle = nil
			}
			h.mu.Unlock()
			return
		}
		j, slot := q.jobs[0], q.slot
		h.mu.Unlock()

		granted := h.await(slot, j)
		switch {
		case granted && h.ctx.Err() == nil && j.control != nil:
			j.control(h.ctx)
		case granted && h.ctx.Err() == nil:
			h.run(j, slot)
			h.slots.leave(slot)
			if j.done != nil {
				j.done()
			}
		case h.ctx.Err() != nil:
			// mom is shutting down: the run is not started, and a wake-up stays for next time.
			h.slots.leave(slot)
		default:
			waited := h.slots.leave(slot)
			h.log.Info("run stopped before it started", "channel", key, "user", j.msg.Sender.Username,
				"waited", waited.Round(time.Millisecond))
			h.journalDropped(j)
			if j.done != nil {
				j.done() // a stopped wake-up counts as handled, as when `stop` drops it from the queue
			}
		}

		h.mu.Lock()
		h.noteUsedLocked(j.ch)
		q.slot = nil
		if len(q.jobs) > 0 {
			q.jobs = q.jobs[1:]
		}
		if len(q.jobs) > 0 {
			q.slot = h.slots.take(q.jobs[0].wakeUp) // at the back of the line: one run per turn
		}
		h.mu.Unlock()
	}
}

// await waits until slot is granted, cancelled by `stop` or mom shuts down, and reports
// whether it was granted. A run that has to wait is logged, and the person who asked for it
// hears once that it waits, unless it gets its slot within h.waitNotice.
func (h *Hub) await(slot *ticket, j job) bool {
	if slot.granted() {
		return true
	}
	running, waiting := h.slots.load()
	h.log.Info("run waits for a free slot", "channel", j.ch.Key(), "event", j.wakeUp,
		"running", running, "waiting", waiting)
	if !j.wakeUp {
		tell := time.AfterFunc(h.waitNotice, func() {
			h.notice(j.mem, j.msg, "_Busy in other conversations; I'll start on this as soon as I can. Say `"+
				stopHint(j.mem, j.msg)+"` to cancel._")
		})
		defer tell.Stop()
	}
	select {
	case <-slot.ready:
		return true
	case <-slot.dropped:
	case <-h.ctx.Done():
	}
	return false
}

// run answers one trigger in slot and shows the run to the channel.
func (h *Hub) run(j job, slot *ticket) {
	if h.ctx.Err() != nil {
		return
	}
	start := time.Now()
	h.journal(j.ch, h.startEntry(j))
	reply := h.reply(j, func(at chat.Place, id string) {
		h.journal(j.ch, store.RunEntry{Type: store.RunStatus, Run: j.msg.ID, Status: id, StatusAt: &at})
	})
	res := h.runner.HandleMessage(h.ctx, agent.Request{
		ChannelDir: j.ch, Trigger: j.msg, LogEnd: j.logEnd, Context: h.channelContext(j.mem, j.msg),
		Sink: h.observed(j, reply.Event), Upload: reply.Upload, Waited: j.waited, Approver: h.approver(j),
		Model: h.channelModel(j.mem, j.ch),
	})
	// The reply's last platform calls must finish even when mom is shutting down, so people
	// see how the run ended; they get a few seconds of their own.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(h.ctx), 10*time.Second)
	defer cancel()
	if err := reply.Close(ctx); err != nil {
		h.log.Warn("could not finish the reply", "channel", j.ch.Key(), "err", err)
	}
	h.mu.Lock()
	closing := h.closed
	h.lastRun[j.ch.Key()] = lastRun{reason: string(res.StopReason), err: res.ErrorMessage, at: time.Now()}
	h.mu.Unlock()
	if res.StopReason != llm.StopAborted || !closing {
		// A run that mom's own shutdown aborted is left unfinished in the journal, so that
		// the next mom does it again (resume.go).
		h.journal(j.ch, store.RunEntry{Type: store.RunEnd, Run: j.msg.ID, Reason: string(res.StopReason)})
	}
	level := slog.LevelInfo
	if res.StopReason == llm.StopError {
		level = slog.LevelWarn
	}
	h.log.Log(ctx, level, "run finished", "channel", j.ch.Key(), "user", j.msg.Sender.Username,
		"stopReason", res.StopReason, "error", res.ErrorMessage, "took", time.Since(start).Round(time.Millisecond),
		"waited", slot.waitedFor().Round(time.Millisecond))
}

// reply starts showing j's run: the adapter's own way where it has one (Replier), else drawn
// by the shared renderer on the adapter's Surface, which tells posted where its status
// message is, and reuses the one of the attempt before.
func (h *Hub) reply(j job, posted func(at chat.Place, id string)) run.Reply {
	mem, trigger := j.mem, j.msg
	if r, ok := mem.Adapter.(Replier); ok {
		return r.Reply(h.ctx, trigger.ChannelID, trigger)
	}
	log := h.log.With("adapter", mem.Name(), "channel", trigger.ChannelID)
	st := render.StatusOptions{Posted: posted, Asked: func(request string, at chat.Place, id string) {
		h.noteQuestion(j.ch, request, at, id)
	}}
	if j.attempt > 1 {
		st.Text, st.Reuse, st.ReuseAt = restartedStatus, j.reuse, j.reuseAt
	}
	return render.NewReply(h.ctx, mem.Surface(), mem.Dialect(), trigger, log, st)
}

// channelContext gathers what the agent should know about where the trigger came from.
func (h *Hub) channelContext(mem *member, m chat.Message) agent.ChannelContext {
	dir := mem.Directory()
	cc := agent.ChannelContext{
		AdapterType: mem.cfg.Type, IsDM: m.IsDM, Users: dir.Users, Channels: dir.Channels,
		ChannelName: m.ChannelID,
	}
	for _, c := range cc.Channels {
		if c.ID == m.ChannelID {
			cc.ChannelName = c.Name
			break
		}
	}
	if b, ok := mem.Adapter.(BotUser); ok {
		cc.Bot = b.Bot()
	}
	if m, ok := mem.Adapter.(agent.Membership); ok {
		cc.Membership = m
	}
	return cc
}
