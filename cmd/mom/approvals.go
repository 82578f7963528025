package main

import (
	"flag"
	"fmt"
	"time"

	"github.com/mom-agent/mom/internal/store"
	"github.com/mom-agent/mom/internal/visible"
)

// cmdApprovals is `mom approvals <data-dir> <adapter>/<channel> [--remove key]`: list the
// commands and tools people allowed always in a channel, with who allowed them and when, or
// take one back. It works while mom runs: the next call of that command is asked about again.
func cmdApprovals(args []string, std stdio) error {
	var remove string
	cc, err := parseChannelCommand("approvals", args, "team/C0123456789", func(fs *flag.FlagSet) {
		fs.StringVar(&remove, "remove", "", "take back the \"allow always\" with this key (as listed)")
	})
	if err != nil {
		return err
	}
	st, err := store.Open(cc.dir)
	if err != nil {
		return err
	}
	defer st.Close()
	ch, err := st.ChannelDir(cc.adapter, cc.channel)
	if err != nil {
		return err
	}
	entries, err := ch.Approvals()
	if err != nil {
		return err
	}
	always := store.AllowedAlways(entries)
	if remove != "" {
		for _, e := range always {
			if e.Key == remove {
				if err := ch.JournalApproval(store.ApprovalEntry{Type: store.ApprovalRevoked, Key: remove}); err != nil {
					return err
				}
				fmt.Fprintf(std.out, "removed: %s (it will be asked about again)\n", visible.Line(remove))
				return nil
			}
		}
		return fmt.Errorf("nothing is allowed always in %s under %q; `mom approvals %s %s` lists what is", cc.target, remove, cc.dir, cc.target)
	}
	if len(always) == 0 {
		fmt.Fprintf(std.out, "nothing is allowed always in %s\n", visible.Line(cc.target))
		return nil
	}
	for _, e := range always {
		by := "?"
		if e.By != nil {
			by = e.By.Username
			if by == "" {
				by = e.By.ID
			}
		}
		fmt.Fprintf(std.out, "%s\n    allowed by %s on %s\n", visible.Line(e.Key), visible.Line(by), e.At.Local().Format(time.DateTime))
	}
	fmt.Fprintf(std.out, "\nTake one back with: mom approvals %s %s --remove '<key>'\n", cc.dir, cc.target)
	return nil
}
