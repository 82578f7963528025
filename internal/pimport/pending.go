package pimport

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"

	"github.com/mom-agent/mom/internal/agent"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/session"
)

// unconvertedContext is where an old context.jsonl the import could not convert is kept.
const unconvertedContext = "context.jsonl.unconverted"

// context makes the new channel's context.jsonl in stage: the old one migrated to session
// version 3, checked against pi's format rules and loaded with mom's own loader before it is
// used; then the messages the original would have added at its next run (those said since
// its last, see pending), and the mark that the context holds the whole log (logEnd), so
// mom's first run adds only what comes after. final is where the channel will be, the cwd of
// a context made new.
func (im *importer) context(src, stage confined.Dir, final string, logEnd int64, res *ChannelResult) error {
	texts := make(map[string]bool)
	entries := -1 // entries the loaded file must have; -1 for a new context
	switch st, err := src.Stat(contextFile); {
	case errors.Is(err, fs.ErrNotExist):
		res.Context = "none; a new one"
	case err != nil:
		return err
	case !st.Mode().IsRegular():
		res.Context = "not converted: it " + confined.Kind(st.Mode().Type()) + "; a new one"
	default:
		mig, err := migrateContext(src, contextFile, stage, contextFile)
		if err == nil {
			err = checkFormat(stage, contextFile)
		}
		if err != nil {
			stage.Remove(contextFile)
			res.Context = "not converted (" + err.Error() + "); kept as " + unconvertedContext + ", and a new one begins"
			if _, why, err := placeFile(src, contextFile, stage, unconvertedContext, maxContext); err != nil {
				return err
			} else if why != "" {
				res.Notes = append(res.Notes, Note{Path: res.Old + "/" + contextFile, Reason: why})
			}
			break
		}
		texts, entries = mig.userTexts, mig.entries
		res.Context = fmt.Sprintf("session v%d → v3, %d entries", mig.version, mig.entries)
		if mig.dropped > 0 {
			res.Context += fmt.Sprintf(" (%d lines that were not entries dropped, as pi drops them)", mig.dropped)
		}
	}

	sess, err := session.Open(stage, contextFile, final)
	if err != nil {
		return err
	}
	defer sess.Close()
	if entries >= 0 && (sess.Recovered() != "" || sess.Stats().Lines != entries+1 || sess.Stats().Malformed > 0) {
		return fmt.Errorf("mom's loader did not read the converted context.jsonl whole (%d of %d entries)", sess.Stats().Lines-1, entries)
	}
	msgs, err := pending(stage, texts)
	if err != nil {
		return err
	}
	for _, m := range msgs {
		if _, err := sess.AppendMessage(m); err != nil {
			return err
		}
	}
	if len(msgs) > 0 {
		res.Context += "; " + plural(len(msgs), "message") + " said since the original's last run added"
	}
	if err := agent.MarkLogSynced(sess, logEnd); err != nil {
		return err
	}
	return sess.Sync()
}

// checkFormat checks a written context against pi's format rules.
func checkFormat(d confined.Dir, name string) error {
	f, err := d.Open(name)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := session.CheckFormat(f); err != nil {
		return fmt.Errorf("the result breaks pi's format: %w", err)
	}
	return nil
}

// pending are the messages of the new log that the context does not hold, as the original's
// syncLogToSessionManager (context.ts) would have added them at the start of its next run:
// people's lines (not the bot's) as "[userName]: text", left out when a user message of the
// context, or one added before, has that text already, and sorted by time. The original
// compared with every user message of the file, whatever its branch; so does texts.
func pending(stage confined.Dir, texts map[string]bool) ([]llm.Message, error) {
	var out []llm.Message
	_, err := jsonl.Scan(stage, logFile, 0, func(line []byte, _, _ int64) error {
		var m chat.Message
		if err := json.Unmarshal(line, &m); err != nil || m.Sender.IsBot {
			return nil
		}
		who := m.Sender.Username
		if who == "" {
			who = m.Sender.ID
		}
		if who == "" {
			who = "unknown"
		}
		text := "[" + who + "]: " + m.Text
		if texts[text] {
			return nil
		}
		texts[text] = true
		out = append(out, llm.NewUserText(text, m.TS))
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	slices.SortStableFunc(out, func(a, b llm.Message) int { return cmp.Compare(a.Timestamp, b.Timestamp) })
	return out, err
}
