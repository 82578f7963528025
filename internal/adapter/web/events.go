package web

import (
	"net/http"
	"time"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/events"
)

// nextFires is how many coming fire times the page lists for a periodic wake-up.
const nextFires = 3

// wakeUpInfo is one wake-up file (package events) as the page's list of events shows it.
type wakeUpInfo struct {
	File    string `json:"file"`
	Type    string `json:"type,omitempty"`
	Channel string `json:"channel,omitempty"`
	// Schedule is a periodic wake-up's cron schedule and Zone its time zone.
	Schedule string `json:"schedule,omitempty"`
	Zone     string `json:"zone,omitempty"`
	Text     string `json:"text,omitempty"`
	// Next are the coming fire times (RFC 3339); empty when the wake-up will not fire again.
	Next []string `json:"next"`
	// Error says why the file is not a valid wake-up.
	Error string `json:"error,omitempty"`
}

// listWakeUps answers GET /api/events: every file in workspace/events with its next fire
// times, or why it is not a valid wake-up, as `mom events` prints them.
func (a *Adapter) listWakeUps(w http.ResponseWriter, r *http.Request) {
	dir := a.wakeUpDir()
	listed, err := events.List(dir, a.opts.Adapters)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "could not list the events: "+err.Error())
		return
	}
	now := time.Now()
	list := []wakeUpInfo{}
	for _, l := range listed {
		list = append(list, describeWakeUp(l, now))
	}
	writeJSON(w, http.StatusOK, map[string]any{"events": append(list, setAside(dir)...)})
}

// wakeUpDir is workspace/events, the directory of wake-up files.
func (a *Adapter) wakeUpDir() confined.Dir { return a.opts.Store.WorkspaceDir().Join("events") }

// setAside lists the files mom moved into .invalid/ because they are not valid wake-ups, each
// with the reason from the note beside it, so a mistake stays visible after it is moved.
func setAside(dir confined.Dir) []wakeUpInfo {
	var list []wakeUpInfo
	for _, s := range events.ListSetAside(dir) {
		reason := s.Reason
		if reason == "" {
			reason = "(no note says why)"
		}
		list = append(list, wakeUpInfo{File: events.InvalidDir + "/" + s.File, Next: []string{}, Error: "set aside: " + reason})
	}
	return list
}

// describeWakeUp describes one wake-up file.
func describeWakeUp(l events.Listed, now time.Time) wakeUpInfo {
	info := wakeUpInfo{File: l.Name, Next: []string{}}
	if l.Err != nil {
		info.Error = l.Err.Error()
		return info
	}
	wake := l.WakeUp
	info.Type, info.Channel, info.Text = wake.Type, wake.ChannelID(), wake.Text
	switch wake.Type {
	case events.Periodic:
		info.Schedule, info.Zone = wake.Schedule.String(), wake.Zone.String()
		for _, t := range wake.Schedule.NextN(now, nextFires) {
			info.Next = append(info.Next, t.Format(time.RFC3339))
		}
	default:
		if t := wake.Next(now); !t.IsZero() {
			info.Next = append(info.Next, t.Format(time.RFC3339))
		}
	}
	return info
}
