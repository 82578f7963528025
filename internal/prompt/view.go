package prompt

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/skills"
)

// view is Params with everything the prompt shows computed and cleaned, once per Build, so
// that lookup only picks values and wordings. Its fields are named after the placeholders
// they fill.
type view struct {
	platform, adapter string
	// here names the conversation: "#general (C123)".
	here string
	// zone is the time zone with its current offset: "Europe/Vienna, UTC+02:00".
	zone string
	// tz is the bare IANA zone name, for the events examples ("UTC" when unknown).
	tz string

	workspace, channelDir string
	// channelInTree is where the workspace tree shows this channel's directory: indented
	// under channels/ when it lies inside the workspace, its full path otherwise.
	channelInTree string
	// qualified is this channel's id as event files name it: "team/C123".
	qualified string
	// eventsDir is the events directory, quoted for the shell where needed.
	eventsDir string
	// logFile is the channel's log.jsonl, quoted for the shell where needed.
	logFile string

	sandboxKind, sandboxNote, isolation string
	offline                             bool

	// users, channels, skills, tools and customTools are the lists, one entry per line (a
	// custom tool takes several, and a blank line after it), or what says a list is empty.
	users, channels, skills, tools, customTools string
	firstCustomTool                             string
	customToolsDirect                           bool

	globalMemory, channelMemory string
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
		platform:          cmp.Or(p.Platform, "a chat platform"),
		adapter:           p.Adapter,
		here:              here(p),
		zone:              zone(p),
		tz:                cmp.Or(p.Timezone, "UTC"),
		workspace:         p.Workspace,
		channelDir:        p.ChannelDir,
		channelInTree:     p.ChannelDir,
		qualified:         p.Adapter + "/" + p.ChannelID,
		eventsDir:         shellQuote(p.Workspace + "/events"),
		logFile:           shellQuote(p.ChannelDir + "/log.jsonl"),
		sandboxKind:       p.SandboxKind,
		sandboxNote:       strings.TrimSpace(p.SandboxNote),
		isolation:         p.Isolation,
		offline:           p.Offline,
		users:             userLines(p.Users),
		channels:          channelLines(p.Channels, p.ChannelID),
		skills:            skillList(p.Skills),
		tools:             toolList(p.Tools),
		customTools:       customToolList(p.CustomTools),
		customToolsDirect: p.CustomToolsDirect,
		globalMemory:      memory(p.GlobalMemory, p.Workspace+"/MEMORY.md"),
		channelMemory:     memory(p.ChannelMemory, p.ChannelDir+"/MEMORY.md"),
	}
	if rel, ok := strings.CutPrefix(p.ChannelDir, strings.TrimSuffix(p.Workspace, "/")+"/"); ok && rel != "" {
		v.channelInTree = "  " + rel
	}
	if len(p.CustomTools) > 0 {
		v.firstCustomTool = oneLine(p.CustomTools[0].Name)
	}
	return v
}

// size estimates how many bytes the view adds to the section files' own text, so the output
// is allocated once.
func (v *view) size() int {
	return len(v.users) + len(v.channels) + len(v.skills) + len(v.tools) + len(v.customTools) +
		len(v.globalMemory) + len(v.channelMemory) + 20*len(v.channelDir) + 12*len(v.workspace) + 512
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
// MaxListed of them, and says how many were left out.
func userLines(users []chat.User) string {
	idx := order(users, func(a, b *chat.User) int {
		return cmp.Or(strings.Compare(a.Username, b.Username), strings.Compare(a.ID, b.ID))
	})
	n := min(len(idx), MaxListed)
	var b strings.Builder
	b.Grow(n*24 + 32)
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
	listEnd(&b, n, len(idx)-n)
	return b.String()
}

// listEnd finishes a list of people or channels: it says the list is empty, or how many
// entries were left out.
func listEnd(b *strings.Builder, listed, left int) {
	if listed == 0 {
		b.WriteString("(none known)\n")
	}
	if left > 0 {
		fmt.Fprintf(b, "...and %d more.\n", left)
	}
}

// channelLines lists channels as "#name<TAB>id", sorted, at most MaxListed of them plus the
// current one wherever it sorts, and says how many were left out.
func channelLines(channels []chat.Channel, current string) string {
	idx := order(channels, func(a, b *chat.Channel) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), strings.Compare(a.ID, b.ID))
	})
	n := min(len(idx), MaxListed)
	listed := 0
	var b strings.Builder
	b.Grow(min(len(idx), MaxListed+1)*24 + 32)
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
	listEnd(&b, listed, len(idx)-listed)
	return b.String()
}

// skillList lists the skills between XML-style tags, escaped so that no name or description
// can close its tag, or says there are none.
func skillList(list []skills.Skill) string {
	if len(list) == 0 {
		return "(no skills installed yet)"
	}
	var b strings.Builder
	b.WriteString("<available_skills>\n")
	for _, s := range list {
		b.WriteString("<skill>\n<name>")
		b.WriteString(xmlEscape(oneLine(s.Name)))
		b.WriteString("</name>\n<description>")
		b.WriteString(xmlEscape(strings.TrimSpace(s.Description)))
		b.WriteString("</description>\n<location>")
		b.WriteString(xmlEscape(oneLine(s.Path)))
		b.WriteString("</location>\n</skill>\n")
	}
	b.WriteString("</available_skills>")
	return b.String()
}

// toolList lists the tools the model has, one line each.
func toolList(names []string) string {
	if names == nil {
		names = defaultTools
	}
	var b strings.Builder
	for _, n := range names {
		line, ok := toolLines[n]
		if !ok {
			line = oneLine(n)
		}
		b.WriteString("- ")
		b.WriteString(line)
		b.WriteString("\n")
	}
	return b.String()
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
