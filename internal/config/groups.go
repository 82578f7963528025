package config

import (
	"fmt"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// GroupPolicy says where people other than the adapter's admins may start runs outside direct
// messages: in groups, servers and channels. In config.json it is "everyone", "none",
// "admins" (groups where one of the adapter's admins is a member) or a list of group and
// channel ids. Admins may always start runs wherever they are.
type GroupPolicy struct {
	// Everyone lets anybody start runs in any group the bot is in.
	Everyone bool
	// WhereAdmins lets anybody start runs in a group where at least one of the adapter's
	// admins is a member, as the platform says. It is the default on platforms where
	// strangers can add the bot to their own groups (their config.Platform's Groups.Default).
	WhereAdmins bool
	// IDs are the groups (a group chat, a server of channels) and channels where anybody may
	// start runs, when neither of the above is set. Empty means none.
	IDs []string
}

// GroupsWhereAdmins is how config.json spells GroupPolicy.WhereAdmins.
const GroupsWhereAdmins = "admins"

// Admits says whether userID may start a run in channel, which belongs to group (the same id
// on platforms without groups of channels). Admins always may, and so may anybody when the
// policy lets everyone or lists the channel or its group. ask says the answer depends on
// whether an admin is a member of the group, which only the platform can tell; yes is false
// then.
func (p GroupPolicy) Admits(userID, channel, group string, admins []string) (yes, ask bool) {
	switch {
	case userID != "" && slices.Contains(admins, userID), p.Everyone:
		return true, false
	case p.WhereAdmins:
		return false, true
	}
	return slices.Contains(p.IDs, channel) || (group != "" && slices.Contains(p.IDs, group)), false
}

// String describes the policy for `mom check`.
func (p GroupPolicy) String() string {
	switch {
	case p.Everyone:
		return "everyone"
	case p.WhereAdmins:
		return "where an admin is a member"
	case len(p.IDs) == 0:
		return "none"
	default:
		return "only " + strings.Join(p.IDs, ", ")
	}
}

// groups reads a "groups" policy at path for an adapter whose platform has groups gk.
func (d *decoder) groups(v *hujson.Value, path string, gk *Groups) (GroupPolicy, bool) {
	valid := fmt.Sprintf(`"everyone", "none", %q (groups where an admin is a member) or a list of group or channel ids like [%q]`,
		GroupsWhereAdmins, gk.Example)
	if _, ok := v.Value.(*hujson.Array); ok {
		ids, ok := d.strings(v, path)
		return GroupPolicy{IDs: ids}, ok
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '"' {
		d.fail(path, "expected %s, got %s", valid, kindName(v))
		return GroupPolicy{}, false
	}
	s, ok := d.str(v, path)
	if !ok {
		return GroupPolicy{}, false
	}
	switch s {
	case "everyone":
		return GroupPolicy{Everyone: true}, true
	case "none":
		return GroupPolicy{}, true
	case GroupsWhereAdmins:
		if gk.NoLookup != "" {
			d.fail(path, "%q cannot work here: %s (use \"everyone\", \"none\" or a list of ids)", s, gk.NoLookup)
			return GroupPolicy{}, false
		}
		return GroupPolicy{WhereAdmins: true}, true
	}
	d.fail(path, "%q is not valid (use %s)", s, valid)
	return GroupPolicy{}, false
}

// AccessWarnings lists what in the adapters' access settings will surprise the person who
// wrote them, for `mom check` and the log at start: today, an adapter whose groups are open
// only where an admin is a member, with no admins, so that every group is refused.
func (c *Config) AccessWarnings() []string {
	var out []string
	for _, a := range c.Adapters {
		if a.Groups.WhereAdmins && len(a.Admins) == 0 {
			var p Platform
			if a.Platform != nil {
				p = *a.Platform
			}
			out = append(out, fmt.Sprintf(`adapter %s has no "admins", so mom refuses every group and channel there: `+
				`"groups" is %q (only groups where an admin is a member)%s. Add your own %s user id (like %q) to "admins", `+
				`or list the groups mom may work in under "groups".`,
				a.Name, GroupsWhereAdmins, defaultNote(a.Groups, p), a.Type, p.UserID))
		}
	}
	return out
}

// defaultNote says ", the default" when p is the platform's default policy.
func defaultNote(p GroupPolicy, pf Platform) string {
	if pf.Groups != nil && p.WhereAdmins == pf.Groups.Default.WhereAdmins && p.Everyone == pf.Groups.Default.Everyone && len(p.IDs) == 0 {
		return ", the default"
	}
	return ""
}
