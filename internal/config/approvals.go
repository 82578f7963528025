package config

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// Approvals says which tool calls need a person's yes before they run, and who may give it
// (the "approvals" section, at the top, in an adapter's entry and in "channels"; the
// README's "Approvals"). Each level sets only what it names; the narrower level wins, key by
// key (Merge).
type Approvals struct {
	// Mode is ApprovalsOff, ApprovalsAsk or ApprovalsAskHost; "" leaves it to the wider level.
	Mode string
	// Approvers says who may decide; the zero value leaves it to the wider level.
	Approvers Approvers
	// Timeout is how long a request waits for an answer; no answer is a no. Zero leaves it to
	// the wider level.
	Timeout time.Duration
	// Allow lists commands that never need asking ("ls", "git status"); nil leaves it to the
	// wider level, an empty list allows none.
	Allow []string
}

// The approval modes.
const (
	// ApprovalsOff runs every call unasked.
	ApprovalsOff = "off"
	// ApprovalsAsk asks before every command, custom tool call, and write or edit outside the
	// channel's own directory.
	ApprovalsAsk = "ask"
	// ApprovalsAskHost asks as ApprovalsAsk does, but only while commands run on the host,
	// with no sandbox around them: the default.
	ApprovalsAskHost = "ask-host"
)

// DefaultApprovalTimeout is how long a request waits when no level says: long enough to
// notice a notification and decide, short enough that a forgotten run does not hang on.
const DefaultApprovalTimeout = 10 * time.Minute

// maxApprovalMinutes bounds "timeoutMinutes" at a day.
const maxApprovalMinutes = 24 * 60

// Approvers says who may allow or deny a request. In config.json it is "admins",
// "requester" or a list of user ids.
type Approvers struct {
	// Admins lets the adapter's admins decide.
	Admins bool
	// Requester lets the person whose message started the run decide, besides the admins.
	Requester bool
	// IDs lists the people who may decide, instead of the admins.
	IDs []string
}

// set reports whether the approvers were given at this level.
func (a Approvers) set() bool { return a.Admins || a.Requester || a.IDs != nil }

// String spells the approvers as config.json does.
func (a Approvers) String() string {
	switch {
	case a.Requester:
		return "requester"
	case a.IDs != nil:
		return "[" + strings.Join(a.IDs, ", ") + "]"
	default:
		return "admins"
	}
}

// ChannelSettings are the settings of one channel, from the top-level "channels" object,
// whose keys are "<adapter>/<channel id>".
type ChannelSettings struct {
	// Approvals override the adapter's and the top level's, key by key.
	Approvals Approvals
	// Model names the model entry the channel's runs use; "" leaves it to the adapter.
	Model string
	// Limits cap what the channel spends (see Limits).
	Limits Limits
}

var (
	approvalKeys  = []string{"mode", "approvers", "timeoutMinutes", "allow"}
	approvalModes = []string{ApprovalsOff, ApprovalsAsk, ApprovalsAskHost}
	channelKeys   = []string{"approvals", "model", "limits"}
)

// Merge returns a with every key that narrower sets replaced by narrower's.
func (a Approvals) Merge(narrower Approvals) Approvals {
	if narrower.Mode != "" {
		a.Mode = narrower.Mode
	}
	if narrower.Approvers.set() {
		a.Approvers = narrower.Approvers
	}
	if narrower.Timeout != 0 {
		a.Timeout = narrower.Timeout
	}
	if narrower.Allow != nil {
		a.Allow = narrower.Allow
	}
	return a
}

// ApprovalsFor returns the approval settings of a channel of the named adapter, every level
// merged and the defaults filled in.
func (c *Config) ApprovalsFor(adapter, channel string) Approvals {
	a := Approvals{Mode: ApprovalsAskHost, Approvers: Approvers{Admins: true}, Timeout: DefaultApprovalTimeout}
	a = a.Merge(c.Approvals)
	if e, ok := c.AdapterEntry(adapter); ok {
		a = a.Merge(e.Approvals)
	}
	if ch, ok := c.Channels[adapter+"/"+channel]; ok {
		a = a.Merge(ch.Approvals)
	}
	return a
}

// Asks reports whether calls need a yes under these settings with commands running in the
// sandbox of the given type.
func (a Approvals) Asks(sandboxType string) bool {
	return a.Mode == ApprovalsAsk || a.Mode == ApprovalsAskHost && sandboxType == SandboxHost
}

func (d *decoder) approvals(o *object, a *Approvals) {
	if s, ok := o.enum("mode", "approval mode", approvalModes); ok {
		a.Mode = s
	}
	if v := o.get("approvers"); v != nil {
		if ap, ok := d.approvers(v, joinPath(o.path, "approvers")); ok {
			a.Approvers = ap
		}
	}
	n, ok := o.int("timeoutMinutes", 1)
	if ok && n > maxApprovalMinutes {
		d.fail(joinPath(o.path, "timeoutMinutes"), "must be at most %d (a day), got %d", maxApprovalMinutes, n)
	} else if ok {
		a.Timeout = time.Duration(n) * time.Minute
	}
	if cmds, ok := o.strings("allow"); ok {
		a.Allow = cmds
	}
	o.finish(approvalKeys...)
}

func (d *decoder) approvers(v *hujson.Value, path string) (Approvers, bool) {
	if _, ok := v.Value.(*hujson.Array); ok {
		ids, ok := d.strings(v, path)
		if ok && len(ids) == 0 {
			d.fail(path, "an empty list lets nobody approve; use \"admins\" or name people")
			return Approvers{}, false
		}
		return Approvers{IDs: ids}, ok
	}
	s, ok := d.str(v, path)
	if !ok {
		return Approvers{}, false
	}
	switch s {
	case "admins":
		return Approvers{Admins: true}, true
	case "requester":
		return Approvers{Requester: true, Admins: true}, true
	}
	d.fail(path, "%q is not valid (use \"admins\", \"requester\" or a list of user ids)", s)
	return Approvers{}, false
}

// channels decodes the top-level "channels" object; its keys must name a configured adapter.
func (d *decoder) channels(o *object, adapters []AdapterEntry, models map[string]Model) map[string]ChannelSettings {
	out := make(map[string]ChannelSettings)
	for _, m := range o.members() {
		key := memberName(m)
		path := joinPath(o.path, key)
		name, id, ok := strings.Cut(key, "/")
		if !ok || name == "" || id == "" {
			d.fail(path, "channel keys are \"<adapter>/<channel id>\", e.g. \"slack-acme/C0123\"")
			continue
		}
		if !slices.ContainsFunc(adapters, func(a AdapterEntry) bool { return a.Name == name }) {
			d.fail(path, "no adapter is called %q", name)
			continue
		}
		co, ok := d.object(&m.Value, path)
		if !ok {
			continue
		}
		var cs ChannelSettings
		if ao := co.child("approvals"); ao != nil {
			d.approvals(ao, &cs.Approvals)
		}
		if m, ok := d.modelRef(co, models); ok {
			cs.Model = m
		}
		if lo := co.child("limits"); lo != nil {
			d.limits(lo, &cs.Limits)
		}
		co.finish(channelKeys...)
		out[key] = cs
	}
	return out
}

// approvalsSummary is mom check's line about approvals at the top level (adapters and
// channels may narrow them).
func (c *Config) approvalsSummary() string {
	a := Approvals{Mode: ApprovalsAskHost, Approvers: Approvers{Admins: true}, Timeout: DefaultApprovalTimeout}.Merge(c.Approvals)
	var line string
	switch {
	case a.Mode == ApprovalsOff:
		line = "never asks before a command runs (mode off)"
	case a.Mode == ApprovalsAskHost && c.Sandbox.Type == "":
		line = fmt.Sprintf("asks %s before commands if they run on the host (mode ask-host)", a.Approvers)
	case !a.Asks(c.Sandbox.Type):
		line = fmt.Sprintf("not asked while commands run in the %s sandbox (mode %s)", c.Sandbox.Type, a.Mode)
	default:
		line = fmt.Sprintf("asks %s before commands, custom tools and writes outside the channel (mode %s); no answer in %s is a no",
			a.Approvers, a.Mode, a.Timeout)
	}
	if len(a.Allow) > 0 && a.Mode != ApprovalsOff {
		line += "; never asked: " + strings.Join(a.Allow, ", ")
	}
	return "approval: " + line + "\n"
}
