package pimport

import (
	"bytes"
	"encoding/json"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// oldLine is one line of the original mom's log.jsonl (SlackBot.logToFile):
//
//	{"date":"2025-11-26T10:44:00.000Z","ts":"1764153840.123456","user":"U123ABC","userName":"mario",
//	 "displayName":"Mario Zechner","text":"…","attachments":[{"original":"log.txt",
//	 "local":"C123ABC/attachments/1764153840123_log.txt"}],"isBot":false}
//
// date is ISO 8601 (from Slack's ts for people, from the clock for mom's own lines); ts is
// Slack's message timestamp, "seconds.micros", or milliseconds in the first versions (which
// the original's scripts/migrate-timestamps.ts rewrote). mom's own lines have user "bot" and
// the ts of its status message, shared by every line of one run.
type oldLine struct {
	Date        *string         `json:"date"`
	TS          json.RawMessage `json:"ts"`
	User        string          `json:"user"`
	UserName    string          `json:"userName"`
	DisplayName string          `json:"displayName"`
	Text        string          `json:"text"`
	Attachments []oldAttachment `json:"attachments"`
	IsBot       bool            `json:"isBot"`
}

// oldAttachment is a file of an old line: the name in Slack, and where the original saved it,
// relative to its data directory ("<channel>/attachments/<ms>_<name>").
type oldAttachment struct {
	Original string `json:"original"`
	Local    string `json:"local"`
}

// attachment is a file found in an old channel's attachments/, to be copied.
type attachment struct {
	size int64
	mime string
}

// logConverter turns the lines of one old channel's log into mom's messages.
type logConverter struct {
	oldName string // the channel's directory in the old data directory
	channel string // its id in mom
	dm      bool   // a Slack DM, whose messages all address mom
	// files are the files of the old attachments/ that will be copied, by name.
	files map[string]attachment
	// ids counts the ids given so far, to make repeated ones unique: one run of the original
	// logs several lines with its status message's ts.
	ids map[string]int
}

// convert turns one line into a message; ok is false for a line that is neither the
// original's format nor mom's (it is kept aside, verbatim).
func (c *logConverter) convert(line []byte) (m chat.Message, ok bool) {
	if m, ok := momLine(line); ok {
		m.ID = c.unique(m.ID)
		return m, true
	}
	var l oldLine
	if json.Unmarshal(line, &l) != nil || l.User == "" && !l.IsBot {
		return m, false
	}
	ts := rawString(l.TS)
	fromTS, tsOK := slackTime(ts)
	var date time.Time
	dateOK := false
	if l.Date != nil {
		date, dateOK = parseISO(*l.Date)
	}
	// People's lines take their time from Slack's ts, exact to the microsecond as mom's Slack
	// adapter logs it; mom's own from date, when the line was written.
	tsOK, dateOK = tsOK && sane(fromTS), dateOK && sane(date)
	switch {
	case l.IsBot && dateOK, !tsOK && dateOK:
		m.TS = date
	case tsOK:
		m.TS = fromTS
	default:
		return m, false
	}
	id := ts
	if id == "" {
		id = "pimom-" + strconv.FormatInt(m.TS.UnixMilli(), 10)
	}
	if l.IsBot {
		id = "mom-" + id
	}
	m.ID = c.unique(id)
	m.ChannelID = c.channel
	m.Sender = chat.User{ID: l.User, Username: l.UserName, DisplayName: l.DisplayName, IsBot: l.IsBot}
	switch {
	case m.Sender.Username != "":
	case l.IsBot:
		m.Sender.Username = "mom"
	default:
		m.Sender.Username = l.User
	}
	if m.Sender.ID == "" {
		m.Sender.ID = "bot"
	}
	m.Text = l.Text
	m.IsDM = c.dm
	m.IsMention = c.dm && !l.IsBot
	for _, a := range l.Attachments {
		m.Attachments = append(m.Attachments, c.attachment(a))
	}
	return m, true
}

// momLine reads a line that is in mom's own format already (a log that was half converted by
// hand, or appended to by mom).
func momLine(line []byte) (chat.Message, bool) {
	var m chat.Message
	if !bytes.Contains(line, []byte(`"sender"`)) { // the original's lines have none: skip decoding them twice
		return m, false
	}
	if json.Unmarshal(line, &m) != nil || m.ID == "" || m.Sender.ID == "" || m.TS.IsZero() {
		return m, false
	}
	return m, true
}

// attachment describes an old line's file as mom's log does, pointing at the copy in the new
// channel's attachments/. The original wrote the line before the download finished, so the
// file may never have arrived; then the model is told so, as mom tells it of a failed
// download.
func (c *logConverter) attachment(a oldAttachment) chat.Attachment {
	name := path.Base(a.Local)
	out := chat.Attachment{Filename: a.Original}
	if out.Filename == "" {
		out.Filename = name
	}
	if a.Local != c.oldName+"/attachments/"+name {
		out.Error = "the original mom saved it as " + strconv.Quote(a.Local) + ", which is not in this channel's attachments/"
		return out
	}
	f, ok := c.files[name]
	if !ok {
		out.Error = "the original mom's download of it never arrived, or the file could not be copied"
		return out
	}
	out.LocalPath = "attachments/" + name
	out.MimeType, out.Size = f.mime, f.size
	return out
}

// unique returns id, or id with -2, -3 … when it was given already.
func (c *logConverter) unique(id string) string {
	n := c.ids[id]
	c.ids[id] = n + 1
	if n == 0 {
		return id
	}
	return id + "-" + strconv.Itoa(n+1)
}

// slackTime reads Slack's "1764153840.123456", or the milliseconds the original's first
// versions logged.
func slackTime(ts string) (time.Time, bool) {
	sec, frac, hasFrac := strings.Cut(ts, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || n <= 0 {
		return time.Time{}, false
	}
	if !hasFrac {
		if n >= 1e12 {
			return time.UnixMilli(n).UTC(), true
		}
		return time.Unix(n, 0).UTC(), true
	}
	if frac == "" || len(frac) > 9 || strings.Trim(frac, "0123456789") != "" {
		return time.Time{}, false
	}
	ns, _ := strconv.ParseInt((frac + "000000000")[:9], 10, 64)
	return time.Unix(n, ns).UTC(), true
}

// sane reports whether t is a time the original can have logged, and mom's log can hold
// (JSON times stop at year 9999).
func sane(t time.Time) bool { return t.Year() >= 1970 && t.Year() <= 9999 }

// parseISO reads the original's date, JavaScript's toISOString.
func parseISO(s string) (time.Time, bool) {
	t, err := time.Parse(time.RFC3339Nano, s)
	return t.UTC(), err == nil
}

// rawString reads a JSON string or number as its text; "" for anything else.
func rawString(raw json.RawMessage) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var n json.Number
	if len(raw) > 0 && raw[0] != '"' && json.Unmarshal(raw, &n) == nil {
		return n.String()
	}
	return ""
}

// isOldLogLine reports whether line is in the original's log format, for telling its data
// directories from others.
func isOldLogLine(line []byte) bool {
	var l struct {
		Date   *string         `json:"date"`
		TS     json.RawMessage `json:"ts"`
		User   *string         `json:"user"`
		Sender json.RawMessage `json:"sender"`
	}
	return json.Unmarshal(line, &l) == nil && l.Date != nil && l.TS != nil && l.User != nil && l.Sender == nil
}
