package config

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Limits are spending caps on model calls: the "limits" section, at the top level, in an
// adapter's entry and in "channels" (the README's "Spending caps"). A call is refused when
// any cap that holds for its channel is reached; the call under way when a cap is reached is
// never cut.
//
// DailyUSD, MonthlyUSD and DailyTokens cap the spend of the level that sets them: at the top
// level all channels' together, in an adapter's entry its channels' together, in "channels"
// the one channel's. Every level's caps hold at once, so a channel cannot lift the top
// level's. PerUserDailyUSD and TimeZone are settings rather than sums: the narrowest level
// that sets them wins (Merge).
type Limits struct {
	// DailyUSD and MonthlyUSD cap what the level's calls cost in a day and in a calendar
	// month, in US dollars; zero sets no cap. Calls to a model without a price (a local
	// model) cost nothing and are never refused by them.
	DailyUSD, MonthlyUSD float64
	// PerUserDailyUSD caps what the runs each person starts cost in a day, in all of the
	// adapter's channels together (people are known by their id on the platform); the
	// wake-ups of a channel count as one person. Zero leaves it to the wider level.
	PerUserDailyUSD float64
	// DailyTokens caps the tokens (input, output and cached) of the level's calls in a day,
	// whatever the model: the cap that holds local models. Zero sets no cap.
	DailyTokens int
	// TimeZone is the IANA name of the zone whose midnight starts days and months; "" leaves
	// it to the wider level, and UTC at the top.
	TimeZone string

	// loc is TimeZone loaded, when the decoder checked it.
	loc *time.Location
}

// ChannelLimits are the caps that hold for one channel's model calls (Config.LimitsFor).
type ChannelLimits struct {
	// Workspace, Adapter and Channel are the caps each level sets on its own spend. Each
	// has the time zone that holds at its level filled in.
	Workspace, Adapter, Channel Limits
	// PerUserDailyUSD is the per-person cap of the narrowest level that sets one; zero for
	// none.
	PerUserDailyUSD float64
}

// Merge returns l with every key that narrower sets replaced by narrower's.
func (l Limits) Merge(narrower Limits) Limits {
	if narrower.DailyUSD != 0 {
		l.DailyUSD = narrower.DailyUSD
	}
	if narrower.MonthlyUSD != 0 {
		l.MonthlyUSD = narrower.MonthlyUSD
	}
	if narrower.PerUserDailyUSD != 0 {
		l.PerUserDailyUSD = narrower.PerUserDailyUSD
	}
	if narrower.DailyTokens != 0 {
		l.DailyTokens = narrower.DailyTokens
	}
	if narrower.TimeZone != "" {
		l.TimeZone, l.loc = narrower.TimeZone, narrower.loc
	}
	return l
}

// Location is the time zone whose midnight starts the level's days and months: TimeZone
// loaded, or UTC when it is empty (or, in Limits made in code, names no zone).
func (l Limits) Location() *time.Location {
	if l.loc != nil {
		return l.loc
	}
	if l.TimeZone != "" {
		if loc, err := time.LoadLocation(l.TimeZone); err == nil {
			return loc
		}
	}
	return time.UTC
}

// Caps reports whether the level sets any cap of its own (DailyUSD, MonthlyUSD,
// DailyTokens).
func (l Limits) Caps() bool {
	return l.DailyUSD > 0 || l.MonthlyUSD > 0 || l.DailyTokens > 0
}

// LimitsFor returns the caps that hold for a channel of the named adapter, level by level.
func (c *Config) LimitsFor(adapter, channel string) ChannelLimits {
	var ad, ch Limits
	if e, ok := c.AdapterEntry(adapter); ok {
		ad = e.Limits
	}
	if s, ok := c.Channels[adapter+"/"+channel]; ok {
		ch = s.Limits
	}
	top := c.Limits
	atAdapter := top.Merge(ad)
	atChannel := atAdapter.Merge(ch)
	ad.TimeZone, ad.loc = atAdapter.TimeZone, atAdapter.loc
	ch.TimeZone, ch.loc = atChannel.TimeZone, atChannel.loc
	return ChannelLimits{Workspace: top, Adapter: ad, Channel: ch, PerUserDailyUSD: atChannel.PerUserDailyUSD}
}

// LimitZones returns every time zone some level's days begin in, UTC included when a level
// uses it: a ledger totals each day and month in each of them.
func (c *Config) LimitZones() []*time.Location {
	var out []*time.Location
	add := func(l Limits) {
		loc := l.Location()
		if !slices.ContainsFunc(out, func(z *time.Location) bool { return z.String() == loc.String() }) {
			out = append(out, loc)
		}
	}
	add(c.Limits)
	for _, a := range c.Adapters {
		add(c.Limits.Merge(a.Limits))
	}
	for key := range c.Channels {
		adapter, channel, _ := strings.Cut(key, "/")
		add(c.LimitsFor(adapter, channel).Channel)
	}
	return out
}

var limitKeys = []string{"dailyUsd", "monthlyUsd", "perUserDailyUsd", "dailyTokens", "timeZone"}

func (d *decoder) limits(o *object, l *Limits) {
	for _, k := range []struct {
		key string
		to  *float64
	}{{"dailyUsd", &l.DailyUSD}, {"monthlyUsd", &l.MonthlyUSD}, {"perUserDailyUsd", &l.PerUserDailyUSD}} {
		v, ok := o.number(k.key)
		switch {
		case !ok:
		case v <= 0:
			d.fail(joinPath(o.path, k.key), "must be above 0 (US dollars; leave the key out for no cap), got %v", v)
		default:
			*k.to = v
		}
	}
	if n, ok := o.int("dailyTokens", 1); ok {
		l.DailyTokens = n
	}
	if s, ok := o.str("timeZone"); ok {
		if loc, err := loadZone(s); err != nil {
			d.fail(joinPath(o.path, "timeZone"), "%v", err)
		} else {
			l.TimeZone, l.loc = s, loc
		}
	}
	o.finish(limitKeys...)
}

// loadZone loads a zone named the IANA way. "Local" is refused: messages name the zone
// where a day begins, and "Local" tells nobody when that is.
func loadZone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, fmt.Errorf("%q is no time zone name; use an IANA name like \"Europe/Vienna\", or \"UTC\"", name)
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("%q is not a time zone this machine knows; use an IANA name like \"Europe/Vienna\", or \"UTC\"", name)
	}
	return loc, nil
}

// LimitsZone reads the time zone of the top-level "limits" from the config file at path
// without checking the rest or expanding ${VAR}s, for `mom usage`, which reads the ledger
// while tokens may not be in the environment: UTC when the file sets none.
func LimitsZone(path string) (*time.Location, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	var c struct {
		Limits struct {
			TimeZone string `json:"timeZone"`
		} `json:"limits"`
	}
	if err := peek(data, path, &c); err != nil {
		return nil, err
	}
	if c.Limits.TimeZone == "" {
		return time.UTC, nil
	}
	loc, err := loadZone(c.Limits.TimeZone)
	if err != nil {
		return nil, fmt.Errorf("%s: limits.timeZone: %w", path, err)
	}
	return loc, nil
}

// limitsSummary is mom check's description of the caps, or "" when no level sets one.
func (c *Config) limitsSummary() string {
	var b strings.Builder
	if s := c.Limits.describe(); s != "" {
		fmt.Fprintf(&b, "caps:     in all channels together: %s\n", s)
	}
	for _, a := range c.Adapters {
		if s := c.Limits.Merge(a.Limits).describeBelow(a.Limits); s != "" {
			fmt.Fprintf(&b, "caps:     in %s's channels together: %s\n", a.Name, s)
		}
	}
	keys := make([]string, 0, len(c.Channels))
	for k := range c.Channels {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		adapter, channel, _ := strings.Cut(k, "/")
		cl := c.LimitsFor(adapter, channel)
		if s := cl.Channel.describeBelow(c.Channels[k].Limits); s != "" {
			fmt.Fprintf(&b, "caps:     in %s: %s\n", k, s)
		}
	}
	return b.String()
}

// describeBelow describes what own, an adapter's or a channel's "limits", sets, with l the
// merged settings of that level.
func (l Limits) describeBelow(own Limits) string {
	if own == (Limits{}) {
		return ""
	}
	own.TimeZone, own.loc = l.TimeZone, l.loc
	return own.describe()
}

// describe says in words what the level caps, or "" when it sets nothing.
func (l Limits) describe() string {
	var parts []string
	if l.DailyUSD > 0 {
		parts = append(parts, USD(l.DailyUSD)+" a day")
	}
	if l.MonthlyUSD > 0 {
		parts = append(parts, USD(l.MonthlyUSD)+" a month")
	}
	if l.DailyTokens > 0 {
		parts = append(parts, Count(l.DailyTokens)+" tokens a day")
	}
	if l.PerUserDailyUSD > 0 {
		parts = append(parts, USD(l.PerUserDailyUSD)+" a day per person")
	}
	if len(parts) == 0 {
		return ""
	}
	return strings.Join(parts, ", ") + "; days start at 00:00 " + l.Location().String()
}

// USD writes an amount of US dollars as people write a cap: "$20", "$2.50", "$0.005".
func USD(v float64) string {
	switch {
	case v == float64(int64(v)):
		return "$" + Count(int(v))
	case v >= 0.01:
		return "$" + strconv.FormatFloat(v, 'f', 2, 64)
	}
	return "$" + strconv.FormatFloat(v, 'f', -1, 64)
}

// Count writes a whole number with thousands separated: "1,000,000".
func Count(n int) string {
	s := strconv.Itoa(n)
	if n < 0 {
		return "-" + Count(-n)
	}
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	return b.String()
}
