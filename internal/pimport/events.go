package pimport

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mom-agent/mom/internal/events"
)

// EventsResult is what became of the original's events/ directory.
type EventsResult struct {
	Converted int // written with their channel qualified (or already there the same)
	Verbatim  int // copied as they were: not JSON objects with a channelId mom could qualify
	Kept      int // a file of that name was in workspace/events already, with other content
	// Invalid are the files mom will set aside when it reads them, with the reason its own
	// parser gives (an unknown adapter, a past one-shot, a bad schedule...).
	Invalid []Note
	Notes   []Note
}

// events copies the original's wake-up files into workspace/events/, each channelId made
// "<adapter>/<channel>": the original named bare Slack ids, which mom accepts only with one
// adapter configured.
func (im *importer) events() error {
	res := &im.sum.Events
	entries, err := im.old.ReadDir(eventsDir)
	if err != nil {
		res.Notes = append(res.Notes, Note{Path: eventsDir, Reason: reason(err)})
		return nil
	}
	dst := im.ws.Join(eventsDir)
	for _, e := range entries {
		name, t := e.Name(), e.Type()
		rel := eventsDir + "/" + name
		switch {
		case t.IsDir() && name == events.InvalidDir, strings.HasPrefix(name, "."):
			continue
		case !t.IsRegular() || !strings.HasSuffix(name, ".json"):
			reason := "is not a .json file; mom reads only those"
			if !t.IsRegular() {
				reason = leftOut(t)
			}
			res.Notes = append(res.Notes, Note{Path: rel, Reason: reason})
			continue
		}
		data, err := im.old.ReadFile(rel, events.MaxFileSize)
		if err != nil {
			res.Notes = append(res.Notes, Note{Path: rel, Reason: reason(err)})
			continue
		}
		out, ok := im.qualify(data)
		what, err := writeNew(dst, name, out)
		if err != nil {
			return err
		}
		switch {
		case what == placedKept:
			res.Kept++
			res.Notes = append(res.Notes, Note{Path: dst.Join(name).Path(), Reason: "was already there with other content; kept, and the old one not copied"})
			continue
		case ok:
			res.Converted++
		default:
			res.Verbatim++
		}
		if _, err := events.Parse(name, out, []string{im.o.Adapter}); err != nil {
			res.Invalid = append(res.Invalid, Note{Path: rel, Reason: err.Error()})
		}
	}
	return nil
}

// qualify rewrites a wake-up file's bare channelId as "<adapter>/<channel>", keeping the rest
// of the file's keys as they were. ok is false, and data is returned as it was, for a file
// that is not a JSON object with a string channelId.
func (im *importer) qualify(data []byte) ([]byte, bool) {
	obj, err := parseObject(bytes.TrimSpace(data))
	if err != nil {
		return data, false
	}
	ch, ok := obj.str("channelId")
	if !ok || ch == "" {
		return data, false
	}
	if !strings.Contains(ch, "/") {
		ch = im.o.Adapter + "/" + im.channelID(ch)
	}
	var b bytes.Buffer
	if err := writeObject(&b, obj.set("channelId", jsonString(ch)), nil); err != nil {
		return data, false
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, b.Bytes(), "", "  "); err != nil {
		return data, false
	}
	return pretty.Bytes(), true
}

// eventsLine is the summary's line about events.
func (r EventsResult) line() string {
	s := fmt.Sprintf("%d converted (channelId now <adapter>/<channel>)", r.Converted)
	if r.Verbatim > 0 {
		s += fmt.Sprintf(", %d copied as they were", r.Verbatim)
	}
	if r.Kept > 0 {
		s += fmt.Sprintf(", %d kept as they were in workspace/events", r.Kept)
	}
	return s
}
