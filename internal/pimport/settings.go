package pimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// piSettings are the keys of the original's settings.json (pi's SettingsManager, read by
// its AgentSession) that mom has a config.json key for.
type piSettings struct {
	DefaultProvider      string `json:"defaultProvider"`
	DefaultModel         string `json:"defaultModel"`
	DefaultThinkingLevel string `json:"defaultThinkingLevel"`
	Compaction           *struct {
		Enabled          *bool `json:"enabled"`
		ReserveTokens    *int  `json:"reserveTokens"`
		KeepRecentTokens *int  `json:"keepRecentTokens"`
	} `json:"compaction"`
	Retry *struct {
		Enabled     *bool `json:"enabled"`
		MaxRetries  *int  `json:"maxRetries"`
		BaseDelayMs *int  `json:"baseDelayMs"`
		MaxDelayMs  *int  `json:"maxDelayMs"`
	} `json:"retry"`
}

// The original's model: hard-coded, whatever settings.json said (its agent.ts).
const (
	originalProvider = "anthropic"
	originalModel    = "claude-sonnet-4-5"
)

// settings reads the original's settings.json, if it has one, and turns what mom has of it
// into config.json lines (Summary.Config), with notes on what mom has not.
func (im *importer) settings(name string) {
	var s piSettings
	if name != "" {
		data, err := im.old.ReadFile(name, maxSettings)
		if err == nil {
			err = json.Unmarshal(bytes.TrimPrefix(data, []byte("\uFEFF")), &s) // pi strips a BOM too
		}
		if err != nil {
			im.sum.SettingsNotes = append(im.sum.SettingsNotes, Note{Path: name, Reason: "could not be read: " + reason(err)})
		}
	}
	var lines []string
	lines = append(lines, modelLine(s, &im.sum.SettingsNotes)...)
	if c := s.Compaction; c != nil {
		var kv []string
		kv = appendBool(kv, "enabled", c.Enabled)
		kv = appendInt(kv, "reserveTokens", c.ReserveTokens)
		kv = appendInt(kv, "keepRecentTokens", c.KeepRecentTokens)
		if len(kv) > 0 {
			lines = append(lines, `"compaction": {`+strings.Join(kv, ", ")+`},`)
		}
	}
	if r := s.Retry; r != nil {
		var kv []string
		if r.Enabled != nil && !*r.Enabled {
			kv = append(kv, `"maxRetries": 0`) // mom has no switch: no retries is off
		} else {
			kv = appendInt(kv, "maxRetries", r.MaxRetries)
		}
		kv = appendInt(kv, "baseDelayMs", r.BaseDelayMs)
		kv = appendInt(kv, "maxDelayMs", r.MaxDelayMs)
		if len(kv) > 0 {
			lines = append(lines, `"retry": {`+strings.Join(kv, ", ")+`},`)
		}
	}
	im.sum.Config = append(lines, im.sum.Config...)
}

// modelLine is the model section for the original's model: settings.json's default when it
// names one mom can talk to, else the model the original always used.
func modelLine(s piSettings, notes *[]Note) []string {
	provider, model := s.DefaultProvider, s.DefaultModel
	if model == "" {
		provider, model = originalProvider, originalModel
	}
	if provider == "" {
		provider = originalProvider
	}
	if provider != "anthropic" && provider != "openai" {
		*notes = append(*notes, Note{Path: settingsFile, Reason: fmt.Sprintf(
			"names the model %s/%s; mom talks to Anthropic and to OpenAI or a server that speaks its API (README, Models), so choose one there", provider, model)})
		return nil
	}
	kv := []string{`"provider": ` + quote(provider), `"id": ` + quote(model)}
	switch t := s.DefaultThinkingLevel; t {
	case "", "off":
	case "low", "medium", "high":
		kv = append(kv, `"thinking": `+quote(t))
	case "minimal":
		kv = append(kv, `"thinking": "low"`)
	case "xhigh":
		kv = append(kv, `"thinking": "high"`)
	default:
		*notes = append(*notes, Note{Path: settingsFile, Reason: fmt.Sprintf("defaultThinkingLevel %q is not a level mom knows (off, low, medium, high)", t)})
	}
	return []string{`"model": {` + strings.Join(kv, ", ") + `},`}
}

func appendBool(kv []string, key string, v *bool) []string {
	if v == nil {
		return kv
	}
	return append(kv, fmt.Sprintf("%q: %t", key, *v))
}

func appendInt(kv []string, key string, v *int) []string {
	if v == nil {
		return kv
	}
	return append(kv, fmt.Sprintf("%q: %d", key, *v))
}

func quote(s string) string { return string(jsonString(s)) }

// slackLines are the config.json lines of a Slack adapter called name, for config.json to
// have the adapter the channels went to: it reads the tokens from the variables the original
// read them from.
func slackLines(name string) []string {
	return []string{
		`"adapters": {`,
		`  ` + quote(name) + `: {`,
		`    "type": "slack",`,
		`    "botToken": "${MOM_SLACK_BOT_TOKEN}",  // the variables the original mom read`,
		`    "appToken": "${MOM_SLACK_APP_TOKEN}",`,
		`    "admins": [],                          // your member id: profile → ⋮ → Copy member ID`,
		`    "dm": "everyone"                       // the original answered every DM; mom's default is "none"`,
		`  }`,
		`}`,
	}
}
