package web

import (
	"net/http"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/events"
)

// nextFires is how many coming fire times the page lists for a periodic event.
const nextFires = 3

// eventInfo is one event file as the page lists it.
type eventInfo struct {
	File    string `json:"file"`
	Type    string `json:"type,omitempty"`
	Channel string `json:"channel,omitempty"`
	// Schedule is a periodic event's cron schedule and Zone its time zone.
	Schedule string `json:"schedule,omitempty"`
	Zone     string `json:"zone,omitempty"`
	Text     string `json:"text,omitempty"`
	// Next are the coming fire times (RFC 3339); empty when the event will not fire again.
	Next []string `json:"next"`
	// Error says why the file is not a valid event.
	Error string `json:"error,omitempty"`
}

// events answers GET /api/events: every file in workspace/events with its next fire times,
// or why it is not a valid event, as `mom events` prints them.
func (a *Adapter) events(w http.ResponseWriter, r *http.Request) {
	dir := a.eventsDir()
	listed, err := events.List(dir, a.opts.Adapters)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "could not list the events: "+err.Error())
		return
	}
	now := time.Now()
	list := []eventInfo{}
	for _, l := range listed {
		list = append(list, describe(l, now))
	}
	writeJSON(w, http.StatusOK, map[string]any{"events": append(list, setAside(dir)...)})
}

// eventsDir is workspace/events.
func (a *Adapter) eventsDir() confined.Dir { return a.opts.Store.WorkspaceDir().Join("events") }

// setAside lists the files mom moved into .invalid/ because they are not valid events, each
// with the reason from the note beside it, so a mistake stays visible after it is moved.
func setAside(dir confined.Dir) []eventInfo {
	var list []eventInfo
	for _, s := range events.ListSetAside(dir) {
		reason := s.Reason
		if reason == "" {
			reason = "(no note says why)"
		}
		list = append(list, eventInfo{File: events.InvalidDir + "/" + s.File, Next: []string{}, Error: "set aside: " + reason})
	}
	return list
}

// describe describes one event file.
func describe(l events.Listed, now time.Time) eventInfo {
	info := eventInfo{File: l.Name, Next: []string{}}
	if l.Err != nil {
		info.Error = l.Err.Error()
		return info
	}
	ev := l.Event
	info.Type, info.Channel, info.Text = ev.Type, ev.ChannelID(), ev.Text
	switch ev.Type {
	case events.Periodic:
		info.Schedule, info.Zone = ev.Schedule.String(), ev.Zone.String()
		for _, t := range ev.Schedule.NextN(now, nextFires) {
			info.Next = append(info.Next, t.Format(time.RFC3339))
		}
	default:
		if t := ev.Next(now); !t.IsZero() {
			info.Next = append(info.Next, t.Format(time.RFC3339))
		}
	}
	return info
}
