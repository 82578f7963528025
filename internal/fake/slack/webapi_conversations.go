package fakeslack

import (
	"math"
	"slices"
	"strconv"
)

// conversationsList lists the conversations the bot can see, of the requested types
// (public_channel by default), with a cursor of the form base64("team:<id>").
func (s *Server) conversationsList(q *apiReq) (obj, *apiError) {
	wanted, e := conversationTypes(q)
	if e != nil {
		return nil, e
	}
	var all []*channel
	for _, ch := range s.chanOrder {
		if wanted(ch) && ch.visible() && !(ch.Archived && q.flag("exclude_archived")) {
			all = append(all, ch)
		}
	}
	return s.channelPage(q, all)
}

// channelPage answers one page of channels with a cursor of the form base64("team:<id>").
func (s *Server) channelPage(q *apiReq, all []*channel) (obj, *apiError) {
	start := 0
	if c := q.form.Get("cursor"); c != "" {
		id, ok := decodeCursor(c, "team")
		start = -1
		for i, ch := range all {
			if ok && ch.ID == id {
				start = i
			}
		}
		if start < 0 {
			return nil, fail("invalid_cursor")
		}
	}
	end := min(start+s.limit(q, 100), len(all))
	chans := []wireChannel{}
	for _, ch := range all[start:end] {
		chans = append(chans, s.wireChannel(ch))
	}
	next := ""
	if end < len(all) {
		next = encodeCursor("team", all[end].ID)
	}
	return obj{"channels": chans, "response_metadata": obj{"next_cursor": next}}, nil
}

// readable finds a channel the bot may read, or returns Slack's error.
func (s *Server) readable(q *apiReq) (*channel, *apiError) {
	if e := q.need("channel"); e != nil {
		return nil, e
	}
	ch := s.chans[q.form.Get("channel")]
	if ch == nil || !ch.visible() {
		return nil, fail("channel_not_found")
	}
	if !ch.botMember() {
		return nil, fail("not_in_channel")
	}
	return ch, nil
}

func (s *Server) conversationsInfo(q *apiReq) (obj, *apiError) {
	if e := q.need("channel"); e != nil {
		return nil, e
	}
	ch := s.chans[q.form.Get("channel")]
	if ch == nil || !ch.visible() {
		return nil, fail("channel_not_found")
	}
	return obj{"channel": s.wireChannel(ch)}, nil
}

// window reads oldest, latest and inclusive as a range of microseconds.
func window(q *apiReq) (lo, hi int64, e *apiError) {
	lo, hi = -1, math.MaxInt64
	if v := q.form.Get("oldest"); v != "" {
		us, ok := parseTS(v)
		if !ok {
			return 0, 0, fail("invalid_ts_oldest")
		}
		lo = us
	}
	if v := q.form.Get("latest"); v != "" {
		us, ok := parseTS(v)
		if !ok {
			return 0, 0, fail("invalid_ts_latest")
		}
		hi = us
	}
	if !q.flag("inclusive") {
		lo, hi = lo+1, hi-1
	}
	return max(lo, 0), hi, nil
}

// historyCursor is Slack's history cursor: base64("next_ts:<ts in microseconds>").
func historyCursor(us int64) string { return encodeCursor("next_ts", strconv.FormatInt(us, 10)) }

func readHistoryCursor(q *apiReq) (int64, bool, *apiError) {
	c := q.form.Get("cursor")
	if c == "" {
		return 0, false, nil
	}
	v, ok := decodeCursor(c, "next_ts")
	us, err := strconv.ParseInt(v, 10, 64)
	if !ok || err != nil {
		return 0, false, fail("invalid_cursor")
	}
	return us, true, nil
}

// conversationsHistory returns top-level messages, thread parents and the replies also sent to
// the channel, newest first.
func (s *Server) conversationsHistory(q *apiReq) (obj, *apiError) {
	ch, e := s.readable(q)
	if e != nil {
		return nil, e
	}
	lo, hi, e := window(q)
	if e != nil {
		return nil, e
	}
	cur, hasCur, e := readHistoryCursor(q)
	if e != nil {
		return nil, e
	}
	var picked []*message
	for i := len(ch.msgs) - 1; i >= 0; i-- {
		m := ch.msgs[i]
		if !m.inChannel() || m.us < lo || m.us > hi || (hasCur && m.us > cur) {
			continue
		}
		if m.deleted && len(ch.replies(m.ts)) == 0 {
			continue
		}
		picked = append(picked, m)
	}
	n := s.limit(q, 100)
	out := []*wireMsg{}
	for _, m := range picked[:min(n, len(picked))] {
		out = append(out, s.historyMsg(ch, m))
	}
	res := obj{"messages": out, "has_more": len(picked) > n, "pin_count": 0, "channel_actions_ts": nil,
		"channel_actions_count": 0}
	if len(picked) > n {
		res["response_metadata"] = obj{"next_cursor": historyCursor(picked[n].us)}
	}
	return res, nil
}

// historyMsg renders a message for history, a deleted thread parent as Slack's tombstone.
func (s *Server) historyMsg(ch *channel, m *message) *wireMsg {
	w := s.wire(ch, m)
	if m.deleted {
		t := &wireMsg{Type: "message", Subtype: "tombstone", Hidden: true, Text: "This message was deleted.",
			User: "USLACKBOT", TS: m.ts, ThreadTS: w.ThreadTS, ReplyCount: w.ReplyCount,
			ReplyUsersCount: w.ReplyUsersCount, LatestReply: w.LatestReply, ReplyUsers: w.ReplyUsers,
			IsLocked: w.IsLocked, Subscribed: w.Subscribed}
		return t
	}
	return w
}

// conversationsReplies returns a thread: its parent first, then up to limit replies, oldest
// first, with the cursor base64("next_ts:<ts>") of the next reply.
func (s *Server) conversationsReplies(q *apiReq) (obj, *apiError) {
	ch, e := s.readable(q)
	if e != nil {
		return nil, e
	}
	if e := q.need("ts"); e != nil {
		return nil, e
	}
	m := ch.find(q.form.Get("ts"))
	if m != nil && m.isReply() {
		m = ch.find(m.threadTS)
	}
	if m == nil || (m.deleted && len(ch.replies(m.ts)) == 0) {
		return nil, fail("thread_not_found")
	}
	lo, hi, e := window(q)
	if e != nil {
		return nil, e
	}
	cur, hasCur, e := readHistoryCursor(q)
	if e != nil {
		return nil, e
	}
	var picked []*message
	for _, r := range ch.replies(m.ts) {
		if r.us >= lo && r.us <= hi && (!hasCur || r.us >= cur) {
			picked = append(picked, r)
		}
	}
	n := s.limit(q, 1000)
	out := []*wireMsg{s.historyMsg(ch, m)}
	for _, r := range picked[:min(n, len(picked))] {
		out = append(out, s.wire(ch, r))
	}
	res := obj{"messages": out, "has_more": len(picked) > n}
	if len(picked) > n {
		res["response_metadata"] = obj{"next_cursor": historyCursor(picked[n].us)}
	}
	return res, nil
}

// conversationsMembers lists the user ids of a conversation's members (conversations.members),
// the bot's own user included where it is one, a page at a time with a cursor of the form
// base64("member:<index>"). A conversation the bot cannot see is channel_not_found, as for any
// bot token.
func (s *Server) conversationsMembers(q *apiReq) (obj, *apiError) {
	if e := q.need("channel"); e != nil {
		return nil, e
	}
	ch := s.chans[q.form.Get("channel")]
	if ch == nil || !ch.visible() {
		return nil, fail("channel_not_found")
	}
	ids := slices.Clone(ch.Members)
	switch {
	case ch.Kind == KindIM:
		ids = []string{ch.User, s.cfg.botUser}
	case ch.BotMember && !slices.Contains(ids, s.cfg.botUser):
		ids = append(ids, s.cfg.botUser)
	}
	start := 0
	if c := q.form.Get("cursor"); c != "" {
		at, ok := decodeCursor(c, "member")
		n, err := strconv.Atoi(at)
		if !ok || err != nil || n < 0 || n > len(ids) {
			return nil, fail("invalid_cursor")
		}
		start = n
	}
	end := min(start+s.limit(q, 100), len(ids))
	next := ""
	if end < len(ids) {
		next = encodeCursor("member", strconv.Itoa(end))
	}
	return obj{"members": ids[start:end], "response_metadata": obj{"next_cursor": next}}, nil
}
