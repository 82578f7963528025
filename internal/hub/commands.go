package hub

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/compact"
	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/render"
	"github.com/mom-agent/mom/internal/run"
	"github.com/mom-agent/mom/internal/store"
)

// Chat commands (chat.Commands): a message to mom that starts with one of them is the
// command, answered by the hub, not a run; any other "/word" goes to the model as text. Who
// may start runs in a channel may use them; switching the model takes an admin (anyone who may
// start runs, on an adapter without admins).

// What the hub needs of the runner for the commands, found by type assertion: the agent has
// all of it. A runner without one answers that command with what it cannot do.
type (
	// compactor compacts a channel's context now (/compact).
	compactor interface {
		Compact(ctx context.Context, ch *store.ChannelDir, model, focus string, sink run.Sink) (run.CompactionInfo, error)
	}
	// freshener starts a channel's context afresh (/new).
	freshener interface {
		NewContext(ctx context.Context, ch *store.ChannelDir) (string, error)
	}
	// modeller knows the models runs may use (/model, /status).
	modeller interface {
		ModelNames() []string
		ModelOf(name string) (string, bool)
		ContextUse(ch *store.ChannelDir, model string) (tokens, window int)
	}
)

// parseCommand splits text into a known command and its arguments. Telegram's
// "/cost@mom_bot" is "/cost".
func parseCommand(text string) (name, args string, ok bool) {
	text = strings.TrimSpace(text)
	if !strings.HasPrefix(text, "/") {
		return "", "", false
	}
	word, rest, _ := strings.Cut(text[1:], " ")
	word, _, _ = strings.Cut(word, "@")
	word = strings.ToLower(word)
	for _, c := range chat.Commands() {
		if c.Name == word {
			return word, strings.TrimSpace(rest), true
		}
	}
	return "", "", false
}

// command answers a chat command and reports whether m was one. `stop` keeps its own path.
func (h *Hub) command(mem *member, ch *store.ChannelDir, m chat.Message) bool {
	name, args, ok := parseCommand(m.Text)
	if !ok || name == "stop" {
		return false
	}
	h.log.Info("chat command", "channel", ch.Key(), "user", m.Sender.ID, "command", name)
	switch name {
	case "help":
		h.notice(mem, m, helpText())
	case "model":
		h.notice(mem, m, h.modelCommand(mem, ch, m, args))
	case "cost":
		h.notice(mem, m, h.costText(mem, ch, m.Sender))
	case "status":
		h.notice(mem, m, h.statusText(mem, ch))
	case "new":
		h.inTurn(mem, ch, m, func(ctx context.Context) { h.post(ctx, mem, m, h.newContext(ctx, ch)) })
	case "compact":
		h.inTurn(mem, ch, m, func(ctx context.Context) { h.post(ctx, mem, m, h.compactNow(ctx, mem, ch, args)) })
	}
	return true
}

// inTurn does fn in the channel's line, after the run in progress and those waiting, so that
// a command that changes the context never overlaps a run.
func (h *Hub) inTurn(mem *member, ch *store.ChannelDir, m chat.Message, fn func(ctx context.Context)) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.closed {
		h.enqueueLocked(ch.Key(), job{mem: mem, ch: ch, msg: m, attempt: 1, control: fn})
	}
}

// helpText lists the commands.
func helpText() string {
	var b strings.Builder
	b.WriteString("*Commands* (anything else is a message to me):")
	for _, c := range chat.Commands() {
		b.WriteString("\n• `/" + c.Name)
		if c.Args != "" {
			b.WriteString(" " + c.Args)
		}
		b.WriteString("` — " + c.Summary)
	}
	return b.String()
}

// channelModel is the name of the model the channel's runs use: the one set in the chat
// (/model), else config.json's; "" is the default.
func (h *Hub) channelModel(mem *member, ch *store.ChannelDir) string {
	st, err := ch.State()
	if err != nil {
		h.log.Warn("could not read the channel's settings; using config.json's model", "channel", ch.Key(), "err", err)
	}
	if st.Model != "" {
		if st.Model == config.DefaultModelName {
			return ""
		}
		return st.Model
	}
	if h.modelFor == nil {
		return ""
	}
	return h.modelFor(mem.Name(), ch.ID())
}

// modelCommand shows the channel's model, or switches it to args.
func (h *Hub) modelCommand(mem *member, ch *store.ChannelDir, m chat.Message, args string) string {
	md, ok := h.runner.(modeller)
	if !ok {
		return "_This mom has one model._"
	}
	names := append([]string{config.DefaultModelName}, md.ModelNames()...)
	current := h.channelModel(mem, ch)
	if args == "" {
		desc, _ := md.ModelOf(current)
		return fmt.Sprintf("_This channel's model: %s (%s). Models: %s._", orDefault(current), desc, strings.Join(names, ", "))
	}
	if !h.mayConfigure(mem, m.Sender) {
		return "_Only an admin can switch this channel's model._"
	}
	want := strings.Fields(args)[0]
	if !slices.Contains(names, want) {
		return fmt.Sprintf("_There is no model called %q. Models: %s._", want, strings.Join(names, ", "))
	}
	st, err := ch.State()
	if err != nil {
		return "_Could not switch the model: " + err.Error() + "_"
	}
	st.Model, st.ModelBy, st.ModelAt = want, m.Sender.ID, time.Now().UTC()
	if err := ch.SetState(st); err != nil {
		return "_Could not switch the model: " + err.Error() + "_"
	}
	name := want
	if want == config.DefaultModelName {
		name = ""
	}
	desc, _ := md.ModelOf(name)
	h.log.Info("channel model switched", "channel", ch.Key(), "model", want, "by", m.Sender.ID)
	return fmt.Sprintf("_This channel now uses %s (%s). The conversation carries over._", want, desc)
}

// mayConfigure reports whether who may change the channel's settings: an admin, or anyone
// who may start runs where the adapter has no admins.
func (h *Hub) mayConfigure(mem *member, who chat.User) bool {
	return len(mem.cfg.Admins) == 0 || slices.Contains(mem.cfg.Admins, who.ID)
}

// costText is /cost's answer.
func (h *Hub) costText(mem *member, ch *store.ChannelDir, who chat.User) string {
	if h.cost == nil {
		return "_Spending is not tracked here._"
	}
	return h.cost(mem.Name(), ch.ID(), who.ID)
}

// statusText is /status's answer: the model, how full the context is, where commands run,
// what waits, and how the last run ended.
func (h *Hub) statusText(mem *member, ch *store.ChannelDir) string {
	var b strings.Builder
	model := h.channelModel(mem, ch)
	if md, ok := h.runner.(modeller); ok {
		desc, _ := md.ModelOf(model)
		fmt.Fprintf(&b, "• model: %s (%s)\n", orDefault(model), desc)
		if tokens, window := md.ContextUse(ch, model); window > 0 {
			fmt.Fprintf(&b, "• context: %s of %s tokens (%.0f%%)\n", render.Tokens(tokens), render.Tokens(window), 100*float64(tokens)/float64(window))
		}
	}
	sandbox := h.sandbox
	if sandbox == "" {
		sandbox = "unknown"
	}
	fmt.Fprintf(&b, "• sandbox: %s\n", sandbox)
	key := ch.Key()
	h.mu.Lock()
	waiting, busy := 0, h.runner.IsRunning(key)
	if q := h.queues[key]; q != nil && len(q.jobs) > 1 {
		waiting = len(q.jobs) - 1
	}
	last, seen := h.lastRun[key]
	h.noteUsedLocked(ch) // ContextUse may have opened the context
	h.mu.Unlock()
	switch {
	case busy:
		fmt.Fprintf(&b, "• working now; %d waiting\n", waiting)
	default:
		b.WriteString("• idle\n")
	}
	if seen {
		fmt.Fprintf(&b, "• last run: %s, %s ago", last.reason, time.Since(last.at).Round(time.Second))
		if last.err != "" {
			fmt.Fprintf(&b, " (%s)", oneLine(last.err))
		}
	} else {
		b.WriteString("• no run here since mom started")
	}
	return b.String()
}

// lastRun is how a channel's last run ended, for /status.
type lastRun struct {
	reason, err string
	at          time.Time
}

// newContext is /new.
func (h *Hub) newContext(ctx context.Context, ch *store.ChannelDir) string {
	f, ok := h.runner.(freshener)
	if !ok {
		return "_This mom cannot start a fresh context._"
	}
	aside, err := f.NewContext(ctx, ch)
	switch {
	case errors.Is(err, agent.ErrBusy):
		return "_I'm still working; say /new again when I'm done._"
	case err != nil:
		return "_Could not start a fresh context: " + err.Error() + "_"
	}
	h.log.Info("fresh context", "channel", ch.Key(), "old", aside)
	return "_Fresh start: I remember nothing of this conversation before now. (The old context is kept as " + aside + "; the channel's history is untouched.)_"
}

// compactNow is /compact.
func (h *Hub) compactNow(ctx context.Context, mem *member, ch *store.ChannelDir, focus string) string {
	c, ok := h.runner.(compactor)
	if !ok {
		return "_This mom cannot compact._"
	}
	info, err := c.Compact(ctx, ch, h.channelModel(mem, ch), focus, nil)
	switch {
	case errors.Is(err, agent.ErrBusy):
		return "_I'm still working; say /compact again when I'm done._"
	case errors.Is(err, compact.ErrNothingToCompact):
		return "_Nothing to compact yet: the context is as small as compacting would make it._"
	case err != nil:
		return "_Could not compact: " + oneLine(err.Error()) + "_"
	}
	return fmt.Sprintf("_Compacted: about %s → %s tokens of context._", render.Tokens(info.TokensBefore), render.Tokens(info.TokensAfter))
}

func orDefault(name string) string {
	if name == "" {
		return config.DefaultModelName
	}
	return name
}

// oneLine is s on one line, cut to 200 characters.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > 200 {
		return string(r[:200]) + "…"
	}
	return s
}
