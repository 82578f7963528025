package agent

import (
	"os"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/prompt"
	"github.com/mom-agent/mom/internal/sandbox"
	"github.com/mom-agent/mom/internal/skills"
)

// systemPrompt builds the prompt for one run. It is rebuilt every run so that memory, skills,
// users, channels and custom tools are current.
func (a *Agent) systemPrompt(req Request, custom []llm.Tool) string {
	ex := a.opts.Exec
	ch := req.ChannelDir
	found, errs := skills.Discover(a.store.WorkspaceDir().Join("skills"), ch.Files().Join("skills"))
	for _, err := range errs {
		a.opts.Logger.Warn("skipping a skill", "channel", ch.Key(), "err", err)
	}
	for i := range found {
		found[i].Path = ex.SandboxPath(found[i].Path)
		found[i].Dir = ex.SandboxPath(found[i].Dir)
	}
	return prompt.Build(prompt.Params{
		Workspace:     ex.Workspace(),
		ChannelDir:    ex.SandboxPath(ch.Dir()),
		Adapter:       ch.Adapter(),
		Platform:      a.platformName(req.Context.AdapterType),
		ChannelID:     ch.ID(),
		ChannelName:   req.Context.ChannelName,
		IsDM:          req.Context.IsDM,
		SandboxKind:   ex.Kind(),
		Isolation:     string(sandbox.TraitsOf(ex).Isolation),
		Offline:       sandbox.TraitsOf(ex).Offline,
		Users:         req.Context.Users,
		Channels:      req.Context.Channels,
		GlobalMemory:  a.memory(a.store.Memory),
		ChannelMemory: a.memory(ch.Memory),
		Skills:        found,
		Timezone:      a.zone,
		Now:           time.Now().In(a.opts.Location),

		CustomTools:       custom,
		CustomToolsDirect: a.opts.CustomToolsDirect,
	})
}

// platformName is what the prompt says an adapter of the given type lives in.
func (a *Agent) platformName(adapterType string) string {
	if a.opts.PlatformName == nil {
		return ""
	}
	return a.opts.PlatformName(adapterType)
}

// zoneName names a time zone the way IANA does, which the model knows how to use. For the
// host's zone that name comes from TZ or the /etc/localtime link; failing both, the zone's
// abbreviation is still better than "Local".
func zoneName(loc *time.Location) string {
	if loc != time.Local {
		return loc.String()
	}
	if tz := strings.TrimPrefix(os.Getenv("TZ"), ":"); tz != "" {
		return tz
	}
	if target, err := os.Readlink("/etc/localtime"); err == nil {
		if _, name, ok := strings.Cut(target, "zoneinfo/"); ok {
			return name
		}
	}
	name, _ := time.Now().In(loc).Zone()
	return name
}

// memory reads a MEMORY.md for the prompt. A file that cannot be read is logged and left out:
// the run can still go on.
func (a *Agent) memory(read func() (string, error)) string {
	text, err := read()
	if err != nil {
		a.opts.Logger.Warn("could not read memory", "err", err)
	}
	return text
}
