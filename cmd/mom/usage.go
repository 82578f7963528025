package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/spend"
	"github.com/mom-agent/mom/internal/visible"
)

// cmdUsage is `mom usage <data-dir> [--by channel|person|model|day] [--since 2026-11-01]`:
// what the model calls in the spending ledger cost, grouped, since a day (the start of this
// month unless given) in the time zone of config.json's "limits". It reads the ledger only,
// so it works while mom runs.
func cmdUsage(args []string, std stdio) error {
	var by, since string
	dir, _, err := parseCommand("mom usage", args, func(fs *flag.FlagSet) {
		fs.StringVar(&by, "by", "channel", "group by channel, person, model or day")
		fs.StringVar(&since, "since", "", "count calls from this day on (2026-11-01)")
	})
	if err != nil {
		return err
	}
	if !slices.Contains(spend.Groupings, by) {
		return fmt.Errorf("%w: --by must be one of %s, not %q", errUsage, strings.Join(spend.Groupings, ", "), by)
	}
	if _, err := os.Stat(dir); err != nil {
		return fmt.Errorf("data directory %s: %w", dir, err)
	}
	loc, err := config.LimitsZone(filepath.Join(dir, config.FileName))
	if errors.Is(err, fs.ErrNotExist) {
		loc, err = time.UTC, nil
	}
	if err != nil {
		return err
	}
	now := time.Now().In(loc)
	start := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, loc)
	if since != "" {
		if start, err = time.ParseInLocation(time.DateOnly, since, loc); err != nil {
			return fmt.Errorf("%w: --since must be a day like 2026-11-01, not %q", errUsage, since)
		}
	}
	table, err := spend.UsageTable(dir, by, start, loc)
	if err != nil {
		return err
	}
	// Channel and person ids come from the platforms, where anyone may name a channel.
	fmt.Fprint(std.out, visible.Text(table))
	return nil
}
