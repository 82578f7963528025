package store

import (
	"encoding/json"
	"path/filepath"
	"regexp"

	"github.com/mom-agent/mom/internal/chat"
)

// ImportCommand is how mom tells people to bring the original mom's files over.
const ImportCommand = "mom import <old-data-dir> <data-dir> --adapter <name>"

// piMomLine is a log.jsonl line of pi's original mom: {"date","ts","user","userName",
// "displayName","text","attachments":[{"original","local"}],"isBot"}. Its "ts" is Slack's
// "1764153840.123456", which is not a time mom's format can read, so such a line never
// parses as a chat.Message.
type piMomLine struct {
	Date   *string         `json:"date"`
	TS     *string         `json:"ts"`
	User   *string         `json:"user"`
	Sender json.RawMessage `json:"sender"`
}

// isPiMomLine reports whether line is in the original mom's log format.
func isPiMomLine(line []byte) bool {
	var l piMomLine
	return json.Unmarshal(line, &l) == nil && l.Date != nil && l.TS != nil && l.User != nil && l.Sender == nil
}

// parseLine reads one log line as parseMessage does. A line the original mom wrote is
// skipped like any line mom cannot read, but not silently: the first one a store meets makes
// it say, once, how to convert them.
func (c *ChannelDir) parseLine(line []byte) (chat.Message, error) {
	m, err := parseMessage(line)
	if err != nil && isPiMomLine(line) {
		c.store.legacyLog.Do(func() {
			c.store.log.Warn("this channel's log.jsonl has lines in the format of pi's original mom, which mom skips; "+
				"to convert them, move the channel's directory out of the workspace into a directory of its own and run mom import on that directory",
				"channel", c.Key(), "dir", c.dir, "run", "mom import <that directory> "+c.store.dataDir+" --adapter "+c.adapter)
		})
	}
	return m, err
}

// oldSession matches the name session.Open moves a context.jsonl of session version 1 or 2 to:
// the original mom's, which pi would have migrated.
var oldSession = regexp.MustCompile(`^context\.jsonl\.v[12]-`)

// noteRecovered says that the channel's context.jsonl could not be used and was moved to
// backup, and, when it was the original mom's, how to bring it over instead.
func (c *ChannelDir) noteRecovered(backup string) {
	if !oldSession.MatchString(filepath.Base(backup)) {
		c.store.log.Warn("context.jsonl could not be read; it is kept aside and a new context begins", "channel", c.Key(), "keptAs", backup)
		return
	}
	c.store.log.Warn("context.jsonl was written by pi's original mom (an older session version); it is kept aside and a new context begins. "+
		"mom import converts it with the rest of the old data directory", "channel", c.Key(), "keptAs", backup, "run", ImportCommand)
}
