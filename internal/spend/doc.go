// Package spend owns what model calls cost mom's owners, and the caps on it (config.json's
// "limits"; the README's "Spending caps").
//
// The Ledger is <data>/spend/<yyyy-mm>.jsonl, one JSON line per model call (when, for which
// channel and person, which model, tokens and cost), one file per month (UTC), beside the
// workspace so that no command a run starts can read or forge it. A line reaches the kernel
// before the call's answer is used, so a crash loses at most the call in flight. The ledger
// keeps running totals of the current days and months in memory, loaded from the files at
// start-up, so checking a cap costs a map lookup.
//
// The Guard wraps the model provider. Before every call, compaction's summaries included, it
// checks the caps that hold for the call's channel and person (llm.Origin in the call's
// context) and refuses a call that would start over one with an llm.ErrLimit error worded for
// the chat; the call under way when a cap is reached is never cut. After every call it writes
// the call to the ledger and, once per period, tells the channel when 80% of a cap is spent.
package spend
