package main

import (
	"context"
	"errors"
	"io"

	"github.com/mom-agent/mom/internal/adapter"
	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// cmdDownload is `mom download <data-dir> <adapter>/<channel>`: print a channel's history as
// text. An adapter that can fetch the whole history from its platform (a downloader) does,
// threads included, as the original mom's --download did; one that keeps more than the log (a
// transcriber) prints its transcript; for the others it comes from the channel's log.jsonl.
func cmdDownload(ctx context.Context, args []string, std stdio) error {
	cc, err := parseChannelCommand("download", args, "team/C0123456789")
	if err != nil {
		return err
	}
	dir, target, channel, cfg := cc.dir, cc.target, cc.channel, cc.cfg
	var tr transcriber
	if ac, ok := cfg.AdapterEntry(cc.adapter); ok {
		ad, err := adapter.Builtin().Build(*ac, adapter.Env{})
		if err != nil {
			return err
		}
		if d, ok := ad.(downloader); ok {
			return d.Download(ctx, channel, std.out, std.err)
		}
		tr, _ = ad.(transcriber)
	}
	st, err := store.Open(dir)
	if err != nil {
		return err
	}
	defer st.Close()
	ch, err := storedChannelDir(st, dir, target)
	if err != nil {
		return err
	}
	n := 0
	if tr != nil {
		w := &countingWriter{w: std.out}
		if err := tr.Transcript(ch, w); err != nil || w.n > 0 {
			return err
		}
	}
	err = ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		indent := ""
		if m.ReplyTo != "" {
			indent = "  "
		}
		n++
		_, err := io.WriteString(std.out, chat.TranscriptLine(m.TS, m.Sender.Username, m.Text, indent))
		return err
	})
	if err == nil && n == 0 {
		err = errors.New("channel " + target + " has no history in " + dir)
	}
	return err
}

// countingWriter counts the bytes written through it.
type countingWriter struct {
	w io.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}
