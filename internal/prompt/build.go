package prompt

import (
	"cmp"
	_ "embed"
	"strings"
)

// The prompt's prose lives in sections/: a file for each "## " section, and one for each
// wording that Params choose between. Placeholders such as {{Workspace}} in them are filled by
// view.lookup, which is also where the choices between wordings are made.
var (
	//go:embed sections/intro.md
	introMD string
	//go:embed sections/context.md
	contextMD string
	//go:embed sections/formatting.md
	formattingMD string
	//go:embed sections/people.md
	peopleMD string

	//go:embed sections/environment.md
	environmentMD string
	//go:embed sections/environment-docker.md
	environmentDockerMD string
	//go:embed sections/environment-bwrap.md
	environmentBwrapMD string
	//go:embed sections/environment-bwrap-channel.md
	environmentBwrapChannelMD string
	//go:embed sections/environment-bwrap-user.md
	environmentBwrapUserMD string
	//go:embed sections/environment-bwrap-none.md
	environmentBwrapNoneMD string
	//go:embed sections/environment-bwrap-offline.md
	environmentBwrapOfflineMD string
	//go:embed sections/environment-host.md
	environmentHostMD string

	//go:embed sections/workspace.md
	workspaceMD string
	//go:embed sections/skills.md
	skillsMD string
	//go:embed sections/events.md
	eventsMD string
	//go:embed sections/memory.md
	memoryMD string
	//go:embed sections/memory-current.md
	memoryCurrentMD string
	//go:embed sections/logs.md
	logsMD string
	//go:embed sections/tools.md
	toolsMD string

	//go:embed sections/customtools.md
	customToolsMD string
	//go:embed sections/customtools-direct.md
	customToolsDirectMD string
	//go:embed sections/customtools-invoke.md
	customToolsInvokeMD string
)

// Build returns the system prompt for p.
func Build(p Params) string {
	v := newView(&p)
	sections := []string{
		introMD,
		contextMD,
		formattingMD,
		peopleMD,
		environmentMD,
		workspaceMD,
		skillsMD,
		eventsMD,
		memoryMD,
		logsMD,
		toolsMD,
	}
	if len(p.CustomTools) > 0 {
		sections = append(sections, customToolsMD)
	}
	size := v.size()
	for _, s := range sections {
		size += len(s)
	}
	var b strings.Builder
	b.Grow(size)
	for _, s := range sections {
		fill(&b, s, v.lookup)
		b.WriteByte('\n')
	}
	return tidy(b.String())
}

// lookup gives what each placeholder in sections/ stands for.
func (v *view) lookup(name string) (value, bool) {
	switch name {
	case "Platform":
		return plain(v.platform)
	case "Adapter":
		return plain(v.adapter)
	case "Here":
		return plain(v.here)
	case "Zone":
		return plain(v.zone)
	case "TZ":
		return plain(v.tz)
	case "Workspace":
		return plain(v.workspace)
	case "ChannelDir":
		return plain(v.channelDir)
	case "ChannelInTree":
		return plain(v.channelInTree)
	case "Qualified":
		return plain(v.qualified)
	case "EventsDir":
		return plain(v.eventsDir)
	case "LogFile":
		return plain(v.logFile)
	case "Users":
		return plain(v.users)
	case "Channels":
		return plain(v.channels)
	case "Skills":
		return plain(v.skills)
	case "Tools":
		return plain(v.tools)
	case "CustomTools":
		return plain(v.customTools)
	case "FirstCustomTool":
		return plain(v.firstCustomTool)
	case "GlobalMemory":
		return plain(cmp.Or(v.globalMemory, "(empty)"))
	case "ChannelMemory":
		return plain(cmp.Or(v.channelMemory, "(empty)"))
	case "SandboxNote":
		return plain(v.sandboxNote)

	case "Sandbox":
		switch v.sandboxKind {
		case "docker":
			return prose(environmentDockerMD)
		case "bwrap":
			return prose(environmentBwrapMD)
		default: // The most cautious wording.
			return prose(environmentHostMD)
		}
	case "OtherChannels":
		switch v.isolation {
		case "channel":
			return prose(environmentBwrapChannelMD)
		case "user":
			return prose(environmentBwrapUserMD)
		default:
			return prose(environmentBwrapNoneMD)
		}
	case "Network":
		if v.offline {
			return prose(environmentBwrapOfflineMD)
		}
		return plain("")
	case "Memory":
		if v.globalMemory == "" && v.channelMemory == "" {
			return plain("(no memory yet)")
		}
		return prose(memoryCurrentMD)
	case "WithoutJq":
		if v.sandboxKind == "docker" {
			return plain("install it")
		}
		return plain("use grep")
	case "HowToCall":
		if v.customToolsDirect {
			return prose(customToolsDirectMD)
		}
		return prose(customToolsInvokeMD)
	}
	return value{}, false
}

// tidy removes trailing whitespace from every line, turns runs of blank lines into one, and
// ends the text with exactly one newline, so the section files can be laid out for reading
// and inserted text (memory files) cannot add invisible noise.
func tidy(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	blank := true // Drop blank lines at the very start too.
	for len(s) > 0 {
		line, rest, _ := strings.Cut(s, "\n")
		s = rest
		line = strings.TrimRight(line, " \t\r")
		if line == "" {
			if !blank {
				b.WriteByte('\n')
			}
			blank = true
			continue
		}
		b.WriteString(line)
		b.WriteByte('\n')
		blank = false
	}
	out := b.String()
	for strings.HasSuffix(out, "\n\n") {
		out = out[:len(out)-1]
	}
	return out
}
