package config

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Summary describes in plain words what this config would start, for `mom check`. It never
// prints a secret: keys are described by where they come from, and passwords in URLs are
// masked.
func (c *Config) Summary() string {
	var b strings.Builder
	if c.Path != "" {
		fmt.Fprintf(&b, "config:   %s\n", c.Path)
	}
	m := c.Model
	provider, id := m.Provider, m.ID
	if provider == "" {
		provider = "(auto)"
	}
	if id == "" {
		id = "(default)"
	}
	fmt.Fprintf(&b, "model:    %s/%s, thinking %s\n", provider, id, orDefault(string(m.Thinking), "off"))
	fmt.Fprintf(&b, "key:      %s\n", c.keySummary())
	if m.BaseURL != "" {
		fmt.Fprintf(&b, "base URL: %s\n", RedactURL(m.BaseURL))
	}
	if m.MaxTokens > 0 || m.ContextWindow > 0 {
		fmt.Fprintf(&b, "limits:   max tokens %s, context window %s\n", orCatalog(m.MaxTokens), orCatalog(m.ContextWindow))
	}
	b.WriteString(c.modelsSummary())
	fmt.Fprintf(&b, "sandbox:  %s\n", c.sandboxSummary())
	r := c.Retry
	if r.MaxRetries == 0 {
		b.WriteString("retry:    off\n")
	} else {
		fmt.Fprintf(&b, "retry:    up to %d times, waiting %s doubling to at most %s\n", r.MaxRetries, seconds(r.BaseDelay), seconds(r.MaxDelay))
	}
	switch cp := c.Compaction; {
	case !cp.Enabled:
		b.WriteString("compact:  off (long conversations fail once they outgrow the context window)\n")
	case cp != defaultCompaction():
		fmt.Fprintf(&b, "compact:  above the context window minus %d tokens, keeping the newest %d\n", cp.ReserveTokens, cp.KeepRecentTokens)
	}
	fmt.Fprintf(&b, "runs:     %s\n", c.runsSummary())
	switch w := c.Resume.Within; {
	case w == 0:
		b.WriteString("resume:   off (work a restart interrupts is not done again)\n")
	case w != DefaultResumeWithin:
		fmt.Fprintf(&b, "resume:   what a restart interrupted, if under %s old\n", w)
	}
	b.WriteString(c.healthSummary())
	b.WriteString(c.approvalsSummary())
	b.WriteString(c.limitsSummary())
	b.WriteString(c.metricsSummary())
	b.WriteString(c.transcriptionSummary())
	if len(c.Adapters) == 0 {
		b.WriteString("adapters: none (add one under \"adapters\", e.g. \"terminal\": {\"type\": \"cli\"})\n")
		return b.String()
	}
	b.WriteString("adapters:\n")
	for _, a := range c.Adapters {
		admins := "none"
		if len(a.Admins) > 0 {
			admins = strings.Join(a.Admins, ", ")
		}
		fmt.Fprintf(&b, "  %s (%s): DMs from %s", a.Name, a.Type, a.DM)
		if a.Platform != nil && a.Platform.Groups != nil {
			fmt.Fprintf(&b, "; groups: %s", a.Groups)
		}
		fmt.Fprintf(&b, "; admins %s; when busy: %s", admins, a.Busy)
		if a.Options != nil {
			if extra := a.Options.Describe(); extra != "" {
				b.WriteString("; " + extra)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (c *Config) keySummary() string {
	m := c.Model
	switch {
	case m.keyFrom == keyFromFile:
		return keyFromFile
	case m.keyFrom != "":
		return m.keyFrom + " (set)"
	case m.BaseURL != "":
		return "none (not needed for a baseUrl server that takes none)"
	case m.Provider == "":
		return "not resolved yet"
	default:
		return "missing: " + keyVar(m.Provider) + " is not set"
	}
}

func (c *Config) sandboxSummary() string {
	s := c.Sandbox
	var out string
	switch s.Type {
	case SandboxDocker:
		out = fmt.Sprintf("docker, container %q (the workspace is /workspace inside it; commands there can rewrite channel history, log.jsonl and context.jsonl, which only mom's file tools refuse to write)", s.Container)
	case SandboxBwrap:
		network := "network on"
		if s.Offline {
			network = "no network"
		}
		iso := orDefault(s.Isolation, IsolationChannel)
		out = fmt.Sprintf("bwrap, isolation %s, %s (only the workspace is writable, and of channels/ only the run's own channel, whose history, log.jsonl and context.jsonl, is read-only; %s)", iso, network, otherChannels(iso))
		if s.Boundary != "" {
			out += "; " + s.Boundary
		}
	case SandboxHost:
		out = "host (commands run directly on this machine, as this user, unisolated)"
	default:
		out = "not configured: bwrap where bubblewrap works, otherwise host"
	}
	if s.Chosen != "" {
		out += "; " + s.Chosen
	}
	if s.Weakened != "" {
		out += "; WARNING: " + s.Weakened
	}
	if len(s.Env) > 0 {
		out += "; commands also get " + strings.Join(s.Env, ", ")
	}
	return out
}

// otherChannels says what a bwrap command sees of other channels' directories under
// isolation iso.
func otherChannels(iso string) string {
	switch iso {
	case IsolationNone:
		return "other channels are read-only"
	case IsolationUser:
		return "the channels of the person who asked are read-only, the others hidden"
	}
	return "other channels are hidden"
}

// seconds prints a delay as people write it in config.json's neighbourhood: "2s", "60s", "1.5s".
func seconds(d time.Duration) string {
	return strconv.FormatFloat(d.Seconds(), 'f', -1, 64) + "s"
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

func orCatalog(n int) string {
	if n == 0 {
		return "from the catalog"
	}
	return fmt.Sprint(n)
}
