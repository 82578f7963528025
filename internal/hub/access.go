package hub

import (
	"context"
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// Who may start a run. In a direct message (and a group DM, which anyone can open with the
// bot) the adapter's "dm" policy decides, by the sender. Anywhere else the "groups" policy
// decides, by the channel and the group it belongs to; under "admins" that means asking the
// platform whether one of the adapter's admins is a member of the group. Admins may always
// start runs. A refused message stays in the log, like every message, but starts nothing.

// Groups is implemented by adapters whose channels outside DMs belong to groups people can add
// the bot to: a group chat, a server of channels, a workspace's channel. The hub calls it from
// Receive, for each message that addresses mom outside a DM: GroupOf to apply the "groups"
// policy and to name the group in a refusal, AnyMember (answers remembered for a while) under
// the policy "admins". Without it every such channel is its own group, and "admins" refuses.
type Groups interface {
	// GroupOf names the group channelID belongs to: the id "groups" may list, and what mom
	// leaves. "" when the adapter does not know it.
	GroupOf(channelID string) string
	// AnyMember reports whether at least one of userIDs is a member of group now. An error
	// means the platform could not tell.
	AnyMember(ctx context.Context, group string, userIDs []string) (bool, error)
}

// Leaver is implemented by adapters that can take the bot out of a group (leave a group
// chat, or a server). The hub calls Leave right after it posts its refusal
// in the group, once per group, and only when the policy is "admins" and the platform said
// plainly that none of the admins is in it (Groups.AnyMember). An adapter without it stays in
// such groups and refuses runs there.
type Leaver interface {
	// Leave takes the bot out of group, a name GroupOf gave.
	Leave(ctx context.Context, group string) error
}

// refusal names someone or something already told that mom will not work for them, so they
// are told once: a person's DMs, or a group.
type refusal struct {
	adapter, kind, id string
}

// admits applies the access policies to a message that addresses mom, and answers a refused
// one (once). A check that has to ask the platform happens here, before Receive returns; its
// answer is remembered for a while (see presence).
func (h *Hub) admits(ctx context.Context, mem *member, m chat.Message) bool {
	if m.IsDM || m.IsGroupDM {
		if mem.cfg.DM.Allows(m.Sender.ID, mem.cfg.Admins) {
			return true
		}
		h.refuseDM(mem, m)
		return false
	}
	groups, _ := mem.Adapter.(Groups)
	group := ""
	if groups != nil {
		group = groups.GroupOf(m.ChannelID)
	}
	yes, ask := mem.cfg.Groups.Admits(m.Sender.ID, m.ChannelID, group, mem.cfg.Admins)
	if yes {
		return true
	}
	if group == "" {
		// A group the adapter cannot name cannot be asked about: no, but no reason to leave.
		group, groups = m.ChannelID, nil
	}
	absent := false // the platform said plainly that no admin is in the group
	if ask {
		present, definite := h.adminPresent(ctx, mem, groups, group)
		if present {
			return true
		}
		absent = definite
	}
	h.refuseGroup(mem, m, group, ask, absent)
	return false
}

// adminPresent asks (or remembers) whether one of mem's admins is in group. definite is false
// when nobody could be asked or the platform did not answer: that counts as "no", but is no
// reason to leave.
func (h *Hub) adminPresent(ctx context.Context, mem *member, groups Groups, group string) (present, definite bool) {
	admins := mem.cfg.Admins
	if groups == nil || len(admins) == 0 {
		return false, false
	}
	return h.presence.check(mem.Name()+"/"+group, func() (bool, error) {
		ctx, cancel := context.WithTimeout(ctx, presenceTimeout)
		defer cancel()
		in, err := groups.AnyMember(ctx, group, admins)
		if err != nil {
			h.log.Warn("could not tell whether an admin is in a group; refusing runs there for now",
				"adapter", mem.Name(), "group", group, "err", err)
		}
		return in, err
	})
}

// refuseDM tells someone once that mom does not take DMs from them. Later DMs are logged
// silently, so a stranger cannot make mom talk by writing repeatedly.
func (h *Hub) refuseDM(mem *member, m chat.Message) {
	h.log.Info("refused a direct message", "adapter", mem.Name(), "user", m.Sender.ID, "username", m.Sender.Username)
	if h.toldBefore(refusal{mem.Name(), "dm", m.Sender.ID}) {
		return
	}
	h.notice(mem, m, "Sorry, I only take direct messages from people I have been set up to work with. "+
		"An admin can allow you by adding your id `"+m.Sender.ID+"` to \"dm\" for "+mem.Name()+" in mom's config.json.")
}

// refuseGroup answers a refused message in a group: a notice, once per group, that says how an
// admin can allow the group; then, when the policy is "admins" and the platform said no admin
// is in the group (absent), mom leaves it where the platform allows. A policy of "none" or a
// list never makes mom leave: those are the admins' own groups, where they chose to keep mom
// quiet.
func (h *Hub) refuseGroup(mem *member, m chat.Message, group string, whereAdmins, absent bool) {
	r := refusal{mem.Name(), "group", group}
	leaver, canLeave := mem.Adapter.(Leaver)
	leave := whereAdmins && absent && canLeave && h.departures.start(r, m.TS)
	h.log.Info("refused a run in a group", "adapter", mem.Name(), "channel", m.ChannelID, "group", group,
		"user", m.Sender.ID, "username", m.Sender.Username, "policy", mem.cfg.Groups.String(), "leaving", leave)
	told := h.toldBefore(r)
	if told && !leave {
		return
	}
	text := ""
	if !told {
		text = groupRefusal(mem, group, whereAdmins, whereAdmins && absent && canLeave)
	}
	h.background(func(ctx context.Context) {
		if text != "" {
			h.post(ctx, mem, m, text)
		}
		if !leave {
			return
		}
		err := leaver.Leave(ctx, group)
		h.departures.finish(r, err == nil)
		if err != nil {
			h.log.Warn("could not leave a group where no admin is a member", "adapter", mem.Name(), "group", group, "err", err)
			return
		}
		// Whoever adds mom again is asked about afresh.
		h.presence.forget(mem.Name() + "/" + group)
		h.log.Info("left a group where no admin is a member", "adapter", mem.Name(), "group", group)
	})
}

// groupRefusal is the notice for a refused group: why, and what an admin can do about it.
func groupRefusal(mem *member, group string, whereAdmins, leaving bool) string {
	word := mem.cfg.GroupWord()
	allow := fmt.Sprintf("An admin can let me work here by adding its id `%s` to \"groups\" for %s in mom's config.json", group, mem.Name())
	switch {
	case whereAdmins && leaving:
		return fmt.Sprintf("Sorry, I only work in %ss where one of the people who run me is a member, so I'm leaving this one. %s, and then adding me again.", word, allow)
	case whereAdmins:
		return fmt.Sprintf("Sorry, I only work in %ss where one of the people who run me is a member. %s.", word, allow)
	}
	return fmt.Sprintf("Sorry, I don't take requests in this %s. %s.", word, allow)
}

// toldBefore records that r was told and reports whether it had been before.
func (h *Hub) toldBefore(r refusal) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	told := h.refused[r]
	h.refused[r] = true
	return told
}

// presenceTimeout bounds one check of whether an admin is in a group.
const presenceTimeout = 15 * time.Second
