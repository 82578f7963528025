package main

import (
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/events"
	"github.com/mom-agent/mom/internal/visible"
)

// cmdEvents is `mom events <data-dir> [--next N]`: list every wake-up file with its channel
// and its next fire times in its own time zone, and the files that are not valid wake-ups with
// the reason, so a person can check "when will this run?" without waiting.
func cmdEvents(args []string, std stdio) error {
	var next int
	var from string
	dir, fl, err := parseCommand("mom events", args, func(fs *flag.FlagSet) {
		fs.IntVar(&next, "next", 3, "how many fire times to show")
		fs.StringVar(&from, "from", "", "show fire times after this moment (RFC 3339) instead of now")
	})
	if err != nil {
		return err
	}
	now := time.Now()
	if from != "" {
		if now, err = time.Parse(time.RFC3339, from); err != nil {
			return fmt.Errorf("%w: --from must be a time like 2026-03-08T00:00:00-05:00, not %q", errUsage, from)
		}
	}
	if next < 1 || next > 1000 {
		return fmt.Errorf("%w: --next must be between 1 and 1000", errUsage)
	}
	cfg, err := readConfig(filepath.Join(dir, config.FileName), fl)
	if err != nil {
		return err
	}
	names := make([]string, len(cfg.Adapters))
	for i, a := range cfg.Adapters {
		names[i] = a.Name
	}
	evDir := confined.Root(dir).Join("workspace", "events")
	listed, err := events.List(evDir, names)
	if err != nil {
		return err
	}
	for _, l := range listed {
		if l.Err != nil {
			fmt.Fprintf(std.out, "%s  INVALID: %s\n", visible.Line(l.Name), visible.Line(l.Err.Error()))
			continue
		}
		describeWakeUp(std.out, l.WakeUp, now, next)
	}
	shown := len(listed) + listInvalid(std.out, evDir)
	if shown == 0 {
		fmt.Fprintf(std.out, "no events in %s\n", visible.Line(evDir.Path()))
	}
	return nil
}

// describeWakeUp prints one wake-up and its next fire times. Its file name and channel come
// from a file commands in the sandbox may have written, so they are printed with visible.Line.
func describeWakeUp(w io.Writer, wake events.WakeUp, now time.Time, n int) {
	file, channel := visible.Line(wake.File), visible.Line(wake.ChannelID())
	switch wake.Type {
	case events.Immediate:
		fmt.Fprintf(w, "%s  immediate  %s\n  runs as soon as mom sees it (a file older than mom's start is deleted unrun)\n", file, channel)
	case events.OneShot:
		fmt.Fprintf(w, "%s  one-shot  %s\n", file, channel)
		if wake.At.Before(now) {
			fmt.Fprintf(w, "  %s  (past: deleted unrun when mom sees it)\n", wake.At.Format(time.RFC3339))
		} else {
			fmt.Fprintf(w, "  %s\n", wake.At.Format("2006-01-02 15:04 -07:00 Mon"))
		}
	case events.Periodic:
		fmt.Fprintf(w, "%s  periodic %q in %s  %s\n", file, wake.Schedule.String(), visible.Line(wake.Zone.String()), channel)
		times := wake.Schedule.NextN(now, n)
		if len(times) == 0 {
			fmt.Fprintln(w, "  never fires")
		}
		for _, t := range times {
			fmt.Fprintf(w, "  %s\n", t.Format("2006-01-02 15:04 -07:00 MST Mon"))
		}
	}
}

// listInvalid prints the files set aside as invalid in the events directory dir, with the
// reason their note gives. Names and notes may have been written by commands in the sandbox.
func listInvalid(w io.Writer, dir confined.Dir) int {
	list := events.ListSetAside(dir)
	for _, s := range list {
		reason := s.Reason
		if reason == "" {
			reason = "(no note)"
		}
		fmt.Fprintf(w, "%s/%s  INVALID (set aside): %s\n", events.InvalidDir, visible.Line(s.File), visible.Line(reason))
	}
	return len(list)
}
