package pimport

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/visible"
)

// Summary is what an import did, for the person who ran it.
type Summary struct {
	Old, Data, Adapter string
	// adapterType is Options.AdapterType: "" when config.json does not have the adapter yet.
	adapterType string

	Channels []ChannelResult
	// Memory are the workspace's files copied: MEMORY.md, SYSTEM.md.
	Memory []string
	Skills int
	Events EventsResult
	// Config are config.json lines for what the original's settings.json (or its fixed
	// model) said, and SettingsNotes what mom has no key for.
	Config        []string
	SettingsNotes []Note
	// Tools are the original's custom tool folders, which Go cannot run.
	Tools []string
	// Notes are what was left out of the old directory, or kept in the new one, and why.
	Notes []Note
}

func newSummary(o Options, data string) *Summary {
	return &Summary{Old: o.Old, Data: data, Adapter: o.Adapter, adapterType: o.AdapterType}
}

// Problems counts the channels that were refused or failed.
func (s *Summary) Problems() int {
	n := 0
	for _, c := range s.Channels {
		if c.Outcome == Refused || c.Outcome == Failed {
			n++
		}
	}
	return n
}

// Write prints the summary: each channel, the workspace's files, what was left out and why,
// the totals, and what to do next. Names come from the old directory, where commands could
// write, so their terminal controls are shown as escapes.
func (s *Summary) Write(w io.Writer) {
	p := func(format string, a ...any) { fmt.Fprintf(w, format, a...) }
	p("Imported %s into %s (adapter %s).\n", visible.Line(s.Old), visible.Line(s.Data), s.Adapter)

	if len(s.Channels) > 0 {
		p("\nChannels:\n")
	}
	width := 0
	for _, c := range s.Channels {
		width = max(width, len(visible.Line(c.Old)))
	}
	var t totals
	for _, c := range s.Channels {
		t.add(c)
		p("  %-*s → %s: %s\n", width, visible.Line(c.Old), visible.Line(c.Target), c.describe())
	}

	p("\nWorkspace:\n")
	p("  files: %s\n", orNone(strings.Join(s.Memory, ", ")))
	p("  skills: %d\n", s.Skills)
	p("  events: %s\n", s.Events.line())
	for _, n := range s.Events.Invalid {
		p("    mom will set %s aside when it starts: %s\n", visible.Line(n.Path), visible.Line(n.Reason))
	}

	notes := append([]Note(nil), s.Notes...)
	notes = append(notes, s.Events.Notes...)
	notes = append(notes, s.SettingsNotes...)
	for _, c := range s.Channels {
		notes = append(notes, c.Notes...)
	}
	if len(notes) > 0 {
		p("\nLeft out or kept:\n")
		for _, n := range notes {
			p("  %s: %s\n", visible.Line(n.Path), visible.Line(n.Reason))
		}
	}
	if len(s.Tools) > 0 {
		quoted := make([]string, len(s.Tools))
		for i, tl := range s.Tools {
			quoted[i] = visible.Line(tl)
		}
		p("\nCustom tools in TypeScript cannot run in mom: %s. Rewrite each as a folder in %s with a tool.json\n"+
			"(a program that gets its arguments as JSON on stdin) or an mcp.json (an MCP server); see the README, Custom tools.\n",
			strings.Join(quoted, ", "), visible.Line(filepath.Join(s.Data, "tools")))
	}

	memory := len(s.Memory)
	if contains(s.Memory, systemFile) {
		memory-- // SYSTEM.md is the agent's log of its environment, not memory
	}
	p("\nTotal: %s (%s), %s converted, %d not, %s, %s, %s.\n",
		plural(len(s.Channels), "channel"), t.outcomes(), plural(t.lines, "line"), t.unconverted,
		plural(t.attachments, "attachment"), plural(s.Events.Converted+s.Events.Verbatim, "event"), plural(memory+t.memory, "memory file"))

	s.next(p)
}

// next prints what to do next: the config.json lines, the Slack app's new scopes, starting.
func (s *Summary) next(p func(string, ...any)) {
	config := filepath.Join(s.Data, "config.json")
	lines := slices.Clone(s.Config)
	if s.adapterType == "" {
		lines = append(lines, slackLines(s.Adapter)...)
	}
	step := 1
	p("\nNext:\n")
	if len(lines) > 0 {
		p("  %d. Add to %s (mom creates it with the terminal and the web chat on its first start):\n", step, visible.Line(config))
		for _, l := range lines {
			p("       %s\n", l)
		}
		step++
	}
	if s.adapterType == "" || s.adapterType == "slack" {
		p("  %d. mom's Slack app asks for a few more scopes and events than the original's (group DMs, renamed\n"+
			"     and archived channels): update the app's manifest from `mom slack-manifest` (README, Slack).\n", step)
		step++
	}
	p("  %d. Start mom: mom %s\n", step, visible.Line(s.Data))
}

// describe is a channel's line in the summary.
func (c ChannelResult) describe() string {
	switch c.Outcome {
	case Unchanged:
		return "unchanged (imported before)"
	case Refused, Failed:
		return string(c.Outcome) + ": " + visible.Line(c.Reason)
	case Merged:
		if c.Appended == 0 {
			return "merged: nothing newer than its newest line"
		}
		return fmt.Sprintf("merged: %s appended, %s", plural(c.Appended, "newer line"), plural(c.Attachments, "attachment"))
	}
	parts := []string{"imported: " + plural(c.Lines, "log line") + " converted"}
	if c.Unconverted > 0 {
		parts[0] += fmt.Sprintf(", %d not (kept in %s)", c.Unconverted, unconvertedFile)
	}
	parts = append(parts, plural(c.Attachments, "attachment"))
	if c.Files > 0 {
		parts = append(parts, plural(c.Files, "other file"))
	}
	if c.Memory {
		parts = append(parts, "MEMORY.md")
	}
	parts = append(parts, "context: "+c.Context)
	return strings.Join(parts, "; ")
}

// totals add up the channels.
type totals struct {
	lines, unconverted, attachments, memory int
	by                                      map[Outcome]int
}

func (t *totals) add(c ChannelResult) {
	if t.by == nil {
		t.by = make(map[Outcome]int)
	}
	t.by[c.Outcome]++
	switch c.Outcome {
	case Imported:
		t.lines += c.Lines
		t.unconverted += c.Unconverted
		t.attachments += c.Attachments
		if c.Memory {
			t.memory++
		}
	case Merged:
		t.lines += c.Appended
		t.attachments += c.Attachments
	}
}

func (t *totals) outcomes() string {
	var parts []string
	for _, o := range []Outcome{Imported, Unchanged, Merged, Refused, Failed} {
		if n := t.by[o]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", n, o))
		}
	}
	return orNone(strings.Join(parts, ", "))
}

// plural writes n things: "1 attachment", "2 attachments".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}
