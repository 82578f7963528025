package telegram

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-telegram/bot/models"

	"github.com/mom-agent/mom/internal/adapter/intake"
	"github.com/mom-agent/mom/internal/chat"
)

// pollTimeout is how long Telegram holds a getUpdates call open waiting for an update.
const pollTimeout = 25 * time.Second

// batchMax is the most updates one getUpdates call answers (the Bot API's default limit).
const batchMax = 100

// maxPause caps the wait between failed getUpdates calls.
const maxPause = 30 * time.Second

// apiError is an error answer of the Bot API to getUpdates.
type apiError struct {
	Code        int    `json:"error_code"`
	Description string `json:"description"`
	Parameters  struct {
		RetryAfter int `json:"retry_after"`
	} `json:"parameters"`
}

func (e *apiError) Error() string { return fmt.Sprintf("%d %s", e.Code, e.Description) }

// getUpdates asks for the updates from offset on, waiting up to wait (whole seconds; 0
// answers at once) for the first.
func (a *Adapter) getUpdates(ctx context.Context, offset int64, wait time.Duration) ([]json.RawMessage, error) {
	body, _ := json.Marshal(map[string]any{
		"offset": offset, "timeout": int(wait / time.Second), "allowed_updates": []string{"message", "callback_query"},
	})
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/bot"+a.opts.Config.BotToken+"/getUpdates", bytes.NewReader(body))
	if err != nil {
		return nil, a.redact(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := a.http.Do(req)
	if err != nil {
		return nil, a.redact(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, a.redact(err)
	}
	var ans struct {
		OK     bool              `json:"ok"`
		Result []json.RawMessage `json:"result"`
		apiError
	}
	if err := json.Unmarshal(data, &ans); err != nil {
		return nil, fmt.Errorf("getUpdates answered HTTP %d with something that is not the Bot API's JSON: %.200q", resp.StatusCode, data)
	}
	if !ans.OK {
		e := ans.apiError
		return nil, &e
	}
	return ans.Result, nil
}

// redact keeps the bot token, which is part of every API URL, out of an error.
func (a *Adapter) redact(err error) error {
	var ue *url.Error
	if errors.As(err, &ue) {
		ue.URL = strings.ReplaceAll(ue.URL, a.opts.Config.BotToken, "<token>")
	}
	return err
}

// pollLoop fetches updates until ctx ends. Each batch is handled (logged) before the next call
// confirms it; failures are retried with a growing pause and reported once per episode.
//
// It first reads what waited for mom while it was down or starting, with calls that do not
// wait (Telegram answers them with what it holds, at most batchMax at a time), until a batch
// is not full; from then on mom is listening (a.live, see messageTime), and calls wait up to
// pollTimeout for the next update.
func (a *Adapter) pollLoop(ctx context.Context, in chat.Inbox) {
	var offset int64
	var pause time.Duration
	var trouble string // what went wrong last, "" while polling works
	for ctx.Err() == nil {
		live := !a.liveSince().IsZero()
		wait, asked := pollTimeout, time.Now()
		if !live {
			wait = 0
		}
		ups, err := a.getUpdates(ctx, offset, wait)
		if ctx.Err() != nil {
			return
		}
		if err != nil {
			a.connected.Store(false)
			var wait time.Duration
			wait, pause, trouble = a.pollFailed(ctx, err, pause, trouble)
			sleep(ctx, wait)
			continue
		}
		if trouble != "" {
			a.log.Info("receiving Telegram updates again")
			trouble, pause = "", 0
		}
		a.connected.Store(true)
		next, ok := a.handleBatch(ctx, in, ups, offset)
		offset = next
		if !ok {
			sleep(ctx, time.Second) // a message could not be logged; try it again shortly
			continue
		}
		if !live && len(ups) < batchMax {
			// Everything that waited was in this batch: what comes next was sent after it
			// was asked for.
			a.mu.Lock()
			a.live = asked
			a.mu.Unlock()
		}
	}
}

// pollFailed reports a failed getUpdates call (once per kind of trouble) and says how long to
// wait before the next.
func (a *Adapter) pollFailed(ctx context.Context, err error, pause time.Duration, trouble string) (wait, next time.Duration, kind string) {
	next = min(max(2*pause, 200*time.Millisecond), maxPause)
	var ae *apiError
	switch {
	case errors.As(err, &ae) && ae.Code == http.StatusConflict && strings.Contains(ae.Description, "webhook"):
		kind = "webhook"
		a.log.Warn("a webhook is set for this bot, which stops long polling; mom removes it (deleteWebhook)")
		if _, derr := a.api.DeleteWebhook(ctx, nil); derr != nil {
			a.log.Error("could not remove the bot's webhook", "err", explain(derr))
		}
		return 0, next, kind
	case errors.As(err, &ae) && ae.Code == http.StatusConflict:
		kind = "conflict"
		if trouble != kind {
			a.log.Error("another program is reading this bot's updates (Telegram answered 409 Conflict): only one may poll per bot token. " +
				"Stop the other mom, or whatever else uses the token, or give this mom its own bot from @BotFather. mom keeps trying.")
		}
		return next, next, kind
	case errors.As(err, &ae) && ae.Code == http.StatusTooManyRequests:
		kind = "ratelimit"
		return time.Duration(max(ae.Parameters.RetryAfter, 1)) * time.Second, pause, kind
	case errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized || ae.Code == http.StatusNotFound):
		kind = "token"
		if trouble != kind {
			a.log.Error("Telegram no longer accepts the bot token; get it again from @BotFather with /token. mom keeps trying.", "err", err)
		}
		return maxPause, next, kind
	}
	kind = "network"
	if trouble != kind {
		a.log.Warn("could not reach Telegram for updates; retrying", "err", err)
	}
	return next, next, kind
}

// handleBatch hands the messages of a batch of updates to the intake gate and waits until
// each is logged. It returns the offset that confirms what was handled: past the last update,
// or at the first whose message could not be logged, so Telegram sends it again. A batch
// holds at most 100 updates (getUpdates' default limit), so a restarted mom is sent again at
// most that many, fewer than the hub remembers of each channel to recognize a repeat.
func (a *Adapter) handleBatch(ctx context.Context, in chat.Inbox, raws []json.RawMessage, offset int64) (int64, bool) {
	failed := make([]bool, len(raws))
	ids := make([]int64, len(raws))
	var wg sync.WaitGroup
	var mu sync.Mutex
	stuck := map[string]bool{} // channels where a message failed: the rest waits for it
	for i, raw := range raws {
		var u models.Update
		if err := json.Unmarshal(raw, &u); err != nil {
			var head struct {
				ID int64 `json:"update_id"`
			}
			_ = json.Unmarshal(raw, &head)
			ids[i] = head.ID
			a.log.Warn("skipping an update mom cannot read", "update", head.ID, "err", err)
			continue
		}
		ids[i] = u.ID
		if u.CallbackQuery != nil {
			a.callback(ctx, in, u.CallbackQuery)
			continue
		}
		if u.Message == nil {
			continue
		}
		msg := u.Message
		channel := channelOf(msg)
		wg.Add(1)
		a.gate.Take(ctx, in, intake.Delivery{
			Key: fmt.Sprintf("%d/%d", msg.Chat.ID, msg.ID), Lane: channel,
			Convert: func(ctx context.Context) (chat.Message, bool, error) {
				// Later messages of the channel wait for the failed one, so the log keeps
				// Telegram's order when they all come again.
				mu.Lock()
				held := stuck[channel]
				mu.Unlock()
				if held {
					return chat.Message{}, false, intake.ErrHeldBack
				}
				return a.convert(ctx, msg)
			},
			Ack: wg.Done,
			Nack: func() {
				mu.Lock()
				failed[i], stuck[channel] = true, true
				mu.Unlock()
				wg.Done()
			},
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	for i, id := range ids {
		if failed[i] {
			return id, false
		}
		if id >= offset {
			offset = id + 1
		}
	}
	return offset, true
}

// sleep waits d or until ctx ends.
func sleep(ctx context.Context, d time.Duration) {
	if d <= 0 {
		return
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
	case <-ctx.Done():
	}
}
