// Package events wakes mom up on schedules and on external signals, as the spec's events
// system describes: JSON files in workspace/events/ that are immediate (run as soon as they
// appear), one-shot (run once at a time) or periodic (run on a cron schedule in a time zone).
// A watcher schedules files as they are written, changed and removed, and hands due wake-ups
// to the hub, which runs them through the channel's queue like messages from people.
//
// People, the directory and `mom events` call these files events. In code they are wake-ups
// (WakeUp, a wake-up file), so that they are never mistaken for a run's events (run.Event)
// or a model's stream events.
package events

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/events/cron"
	"github.com/mom-agent/mom/internal/store"
)

// The types of wake-up, as a file's "type" names them.
const (
	Immediate = "immediate"
	OneShot   = "one-shot"
	Periodic  = "periodic"
)

// WakeUp is one parsed wake-up file: a file of the events directory that says when to wake
// mom up in which channel, and with what text.
type WakeUp struct {
	// File is the file's name in the events directory ("daily-inbox.json").
	File string
	Type string
	// Adapter and Channel are where the wake-up runs; ChannelID is the qualified form written
	// in the file, "adapter/channel".
	Adapter, Channel string
	Text             string
	// At is when a one-shot runs.
	At time.Time
	// Schedule is a periodic wake-up's cron schedule, in the time zone Zone.
	Schedule *cron.Schedule
	Zone     *time.Location
	// raw is the "at" or "schedule" text as written, for the trigger line.
	raw string
}

// ChannelID is the wake-up's qualified channel id.
func (e WakeUp) ChannelID() string { return e.Adapter + "/" + e.Channel }

// Trigger is the line the agent receives: [EVENT:<file>:<type>:<schedule>] <text>, or
// [EVENT:<file>:immediate] <text>.
func (e WakeUp) Trigger() string {
	if e.Type == Immediate {
		return "[EVENT:" + e.File + ":immediate] " + e.Text
	}
	return "[EVENT:" + e.File + ":" + e.Type + ":" + e.raw + "] " + e.Text
}

// Next returns when the wake-up is due after now: now itself for an immediate one, the zero
// time when a one-shot's moment has passed or a schedule never fires again.
func (e WakeUp) Next(now time.Time) time.Time {
	switch e.Type {
	case Immediate:
		return now
	case OneShot:
		if e.At.Before(now) {
			return time.Time{}
		}
		return e.At
	}
	return e.Schedule.Next(now)
}

// fileFields is a wake-up file as written. Unknown keys are refused, so a typo ("shedule")
// is reported instead of making a wake-up that never runs.
type fileFields struct {
	Type      string `json:"type"`
	ChannelID string `json:"channelId"`
	Text      string `json:"text"`
	At        string `json:"at"`
	Schedule  string `json:"schedule"`
	Timezone  string `json:"timezone"`
}

// Parse reads a wake-up file. adapters are the configured adapter names, so "channelId" can be
// checked, and a bare channel id accepted when there is only one adapter. Errors name the
// field that is wrong.
func Parse(file string, data []byte, adapters []string) (WakeUp, error) {
	var f fileFields
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&f); err != nil {
		return WakeUp{}, fmt.Errorf("not a valid event file: %w", err)
	}
	if dec.More() {
		return WakeUp{}, errors.New("not a valid event file: more than one JSON value")
	}
	wake := WakeUp{File: file, Type: f.Type, Text: strings.TrimSpace(f.Text)}
	var missing []string
	if f.Type == "" {
		missing = append(missing, `"type"`)
	}
	if f.ChannelID == "" {
		missing = append(missing, `"channelId"`)
	}
	if wake.Text == "" {
		missing = append(missing, `"text"`)
	}
	if len(missing) > 0 {
		return WakeUp{}, fmt.Errorf("missing %s", strings.Join(missing, ", "))
	}
	adapter, channel, err := resolveChannel(f.ChannelID, adapters)
	if err != nil {
		return WakeUp{}, err
	}
	wake.Adapter, wake.Channel = adapter, channel
	switch f.Type {
	case Immediate:
	case OneShot:
		if f.At == "" {
			return WakeUp{}, errors.New(`a one-shot event needs "at", e.g. "2025-12-15T09:00:00+01:00"`)
		}
		at, err := time.Parse(time.RFC3339, f.At)
		if err != nil {
			return WakeUp{}, fmt.Errorf(`"at": %q is not a time with a UTC offset like "2025-12-15T09:00:00+01:00"`, f.At)
		}
		wake.At, wake.raw = at, f.At
	case Periodic:
		if f.Schedule == "" || f.Timezone == "" {
			return WakeUp{}, errors.New(`a periodic event needs "schedule" (cron, e.g. "0 9 * * 1-5") and "timezone" (e.g. "Europe/Vienna")`)
		}
		loc, err := time.LoadLocation(f.Timezone)
		if err != nil || f.Timezone == "Local" {
			return WakeUp{}, fmt.Errorf(`"timezone": %q is not an IANA time zone name like "Europe/Vienna"`, f.Timezone)
		}
		s, err := cron.Parse(f.Schedule, loc)
		if err != nil {
			return WakeUp{}, fmt.Errorf(`"schedule": %w`, err)
		}
		wake.Schedule, wake.Zone, wake.raw = s, loc, f.Schedule
	default:
		return WakeUp{}, fmt.Errorf(`"type": %q is not one of immediate, one-shot, periodic`, f.Type)
	}
	return wake, nil
}

// resolveChannel splits "adapter/channel", accepting a bare channel id when exactly one
// adapter is configured.
func resolveChannel(id string, adapters []string) (adapter, channel string, err error) {
	adapter, channel, qualified := strings.Cut(id, "/")
	if !qualified {
		if len(adapters) != 1 {
			return "", "", fmt.Errorf(`"channelId": %q needs its adapter, like "%s/%s" (adapters: %s)`,
				id, firstOr(adapters, "team"), id, strings.Join(adapters, ", "))
		}
		adapter, channel = adapters[0], id
	}
	if !slices.Contains(adapters, adapter) {
		return "", "", fmt.Errorf(`"channelId": no adapter is called %q (adapters: %s)`, adapter, strings.Join(adapters, ", "))
	}
	// Channel directories escape any id safely; "." and ".." are refused anyway, since no
	// platform names a channel so and a writer who does means something else.
	if _, err := store.PathComponent(channel); err != nil || channel == "" || channel == "." || channel == ".." {
		return "", "", fmt.Errorf(`"channelId": %q is not a channel id`, channel)
	}
	return adapter, channel, nil
}

func firstOr(xs []string, def string) string {
	if len(xs) > 0 {
		return xs[0]
	}
	return def
}
