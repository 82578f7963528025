package oldprompt

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
)

// view is what the template sees: Params with everything computed and cleaned, so the
// template holds no logic beyond choosing between wordings.
//
// It copies the fields it needs from Params rather than embedding them, because text/template
// resolves fields through an embedded struct with a slow reflective search on every use.
type view struct {
	Workspace, ChannelDir, Adapter string
	SandboxKind, SandboxNote       string
	Isolation                      string
	Offline                        bool
	GlobalMemory, ChannelMemory    string

	Platform string
	// Here names the conversation: "#general (C123)".
	Here string
	// Zone is the time zone with its current offset: "Europe/Vienna, UTC+02:00".
	Zone string
	// TZ is the bare IANA zone name, for the events examples ("UTC" when unknown).
	TZ string
	// Qualified is this channel's id as event files name it: "team/C123".
	Qualified string
	// Events is the events directory, quoted for the shell where needed.
	Events string
	// ChannelRel is ChannelDir relative to Workspace, or "" when it lies elsewhere.
	ChannelRel string
	// Log is the channel's log.jsonl, quoted for the shell where needed.
	Log string

	// Users and Channels are the lists, one entry per line.
	Users, Channels         string
	MoreUsers, MoreChannels int
	Skills                  []skillView
	Tools                   []string
	CustomTools             []customToolView
	CustomToolsDirect       bool
}

type skillView struct {
	Name, Description, Location string
}

// toolLines describes the built-in tools, one line each, in the order they are listed.
var toolLines = map[string]string{
	"bash":   "bash: run a shell command and get its output (very long output is shortened).",
	"read":   "read: read a text file (use offset and limit for long ones) or look at an image.",
	"write":  "write: create or overwrite a file.",
	"edit":   "edit: replace one exact, unique piece of text in a file.",
	"attach": "attach: share a file with this channel (and only this one), e.g. a report you wrote.",
}

var defaultTools = []string{"bash", "read", "write", "edit", "attach"}

func newView(p *Params) *view {
	v := &view{
		Workspace:   p.Workspace,
		ChannelDir:  p.ChannelDir,
		Adapter:     p.Adapter,
		SandboxKind: p.SandboxKind,
		SandboxNote: strings.TrimSpace(p.SandboxNote),
		Isolation:   p.Isolation,
		Offline:     p.Offline,
		Platform:    p.Platform,
		Here:        here(p),
		Zone:        zone(p),
		TZ:          cmp.Or(p.Timezone, "UTC"),
		Qualified:   p.Adapter + "/" + p.ChannelID,
		Events:      shellQuote(p.Workspace + "/events"),
		Log:         shellQuote(p.ChannelDir + "/log.jsonl"),
	}
	if v.Platform == "" {
		v.Platform = "a chat platform"
	}
	if rel, ok := strings.CutPrefix(p.ChannelDir, strings.TrimSuffix(p.Workspace, "/")+"/"); ok && rel != "" {
		v.ChannelRel = rel
	}
	v.Users, v.MoreUsers = userLines(p.Users)
	v.Channels, v.MoreChannels = channelLines(p.Channels, p.ChannelID)
	v.Skills = skillViews(p)
	v.Tools = tools(p.Tools)
	v.CustomTools, v.CustomToolsDirect = customToolViews(p.CustomTools), p.CustomToolsDirect
	v.GlobalMemory = memory(p.GlobalMemory, p.Workspace+"/MEMORY.md")
	v.ChannelMemory = memory(p.ChannelMemory, p.ChannelDir+"/MEMORY.md")
	return v
}

// size estimates how many bytes the view adds to the template's own text, so the output is
// allocated once.
func (v *view) size() int {
	n := len(v.Users) + len(v.Channels) + len(v.GlobalMemory) + len(v.ChannelMemory) + 20*len(v.ChannelDir)
	for _, s := range v.Skills {
		n += len(s.Name) + len(s.Description) + len(s.Location) + 64
	}
	for _, c := range v.CustomTools {
		n += len(c.Name) + len(c.Description) + 64*(len(c.Params)+1)
	}
	return n
}

func here(p *Params) string {
	id := oneLine(p.ChannelID)
	switch {
	case p.IsDM:
		return fmt.Sprintf("a direct conversation (%s)", id)
	case p.ChannelName != "":
		return fmt.Sprintf("#%s (%s)", oneLine(p.ChannelName), id)
	default:
		return fmt.Sprintf("channel %s", id)
	}
}

func zone(p *Params) string {
	name := p.Timezone
	if p.Now.IsZero() {
		if name == "" {
			return "not known here (`date` shows it)"
		}
		return name
	}
	offset := "UTC" + p.Now.Format("-07:00")
	if name == "" {
		return offset
	}
	return name + ", " + offset
}

// order returns the indices of items in the order cmp gives, so a large list is sorted
// without moving its structs around; an already sorted list (as adapters are asked to give)
// costs one pass.
func order[T any](items []T, cmp func(a, b *T) int) []int {
	idx := make([]int, len(items))
	sorted := true
	for i := range idx {
		idx[i] = i
		if i > 0 && cmp(&items[i-1], &items[i]) > 0 {
			sorted = false
		}
	}
	if !sorted {
		slices.SortFunc(idx, func(a, b int) int { return cmp(&items[a], &items[b]) })
	}
	return idx
}

// userLines lists people as "@username<TAB>display name", one per line, sorted, at most
// MaxListed of them, and returns how many were left out.
func userLines(users []chat.User) (string, int) {
	idx := order(users, func(a, b *chat.User) int {
		return cmp.Or(strings.Compare(a.Username, b.Username), strings.Compare(a.ID, b.ID))
	})
	n := min(len(idx), MaxListed)
	var b strings.Builder
	b.Grow(n * 24)
	for _, i := range idx[:n] {
		u := &users[i]
		name := u.Username
		if name == "" {
			name = u.ID
		}
		b.WriteString("@")
		b.WriteString(oneLine(name))
		if u.DisplayName != "" {
			b.WriteString("\t")
			b.WriteString(oneLine(u.DisplayName))
		}
		b.WriteString("\n")
	}
	return b.String(), len(idx) - n
}

// channelLines lists channels as "#name<TAB>id", sorted, at most MaxListed of them plus the
// current one wherever it sorts, and returns how many were left out.
func channelLines(channels []chat.Channel, current string) (string, int) {
	idx := order(channels, func(a, b *chat.Channel) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	n := min(len(idx), MaxListed)
	listed := 0
	var b strings.Builder
	b.Grow(min(len(idx), MaxListed+1) * 24)
	for k, i := range idx {
		c := &channels[i]
		if k >= n && c.ID != current {
			continue
		}
		name := c.Name
		if name == "" {
			name = c.ID
		}
		b.WriteString("#")
		b.WriteString(oneLine(name))
		b.WriteString("\t")
		b.WriteString(oneLine(c.ID))
		if c.ID == current {
			b.WriteString("\t(this channel)")
		}
		b.WriteString("\n")
		listed++
	}
	return b.String(), len(idx) - listed
}

func skillViews(p *Params) []skillView {
	out := make([]skillView, 0, len(p.Skills))
	for _, s := range p.Skills {
		out = append(out, skillView{
			Name:        xmlEscape(oneLine(s.Name)),
			Description: xmlEscape(strings.TrimSpace(s.Description)),
			Location:    xmlEscape(oneLine(s.Path)),
		})
	}
	return out
}

func tools(names []string) []string {
	if names == nil {
		names = defaultTools
	}
	out := make([]string, 0, len(names))
	for _, n := range names {
		if line, ok := toolLines[n]; ok {
			out = append(out, line)
		} else {
			out = append(out, oneLine(n))
		}
	}
	return out
}

// memory trims a memory file for the prompt and cuts one that has grown too long.
func memory(s, path string) string {
	s = strings.TrimSpace(s)
	if len(s) <= MaxMemory {
		return s
	}
	cut := strings.LastIndexByte(s[:MaxMemory], '\n')
	if cut < MaxMemory/2 {
		cut = MaxMemory
		for cut > 0 && !utf8RuneStart(s[cut]) {
			cut--
		}
	}
	return s[:cut] + fmt.Sprintf("\n[cut: the file has %d bytes; read %s for the rest, and shorten it]", len(s), path)
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
