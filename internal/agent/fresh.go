package agent

import (
	"context"
	"fmt"

	"github.com/mom-agent/mom/internal/store"
)

// NewContext starts the channel's context afresh (`/new`): the old context.jsonl is kept
// beside it with a timestamp, log.jsonl is untouched, and the new context starts at the log's
// end, so the model is told nothing of what was said before. It fails with ErrBusy while the
// channel has a run. It returns the old context's file name.
func (a *Agent) NewContext(ctx context.Context, ch *store.ChannelDir) (string, error) {
	key := ch.Key()
	_, active, err := a.begin(ctx, key)
	if err != nil {
		return "", err
	}
	defer a.end(key, active)
	size, err := ch.LogSize()
	if err != nil {
		return "", fmt.Errorf("could not read log.jsonl: %w", err)
	}
	sess, aside, err := ch.NewSession()
	if err != nil {
		return "", err
	}
	if err := MarkLogSynced(sess, size); err != nil {
		return aside, err
	}
	return aside, sess.Sync()
}
