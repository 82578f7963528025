package agent

import (
	"fmt"

	"github.com/mom-agent/mom/internal/session"
)

// MarkLogSynced records in sess that its conversation already holds everything of the
// channel's log.jsonl before offset, so the next run brings in only the lines after it. It is
// for contexts made outside a run: mom import converts the original mom's context, in which
// the old log's messages already are, and without the mark the first run would add the whole
// log to it again.
func MarkLogSynced(sess *session.Session, offset int64) error {
	if _, err := sess.AppendCustom(cursorType, logCursor{Offset: offset}); err != nil {
		return fmt.Errorf("could not record how far the context holds log.jsonl: %w", err)
	}
	return nil
}
