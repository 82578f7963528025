package fakeslack

import (
	"encoding/json"
	"unicode/utf8"
)

// maxText is the longest text chat.postMessage and chat.update accept, in characters.
const maxText = 40000

// writable finds the channel a message is posted to, or returns Slack's error.
func (s *Server) writable(q *apiReq, arg string) (*channel, *apiError) {
	if e := q.need(arg); e != nil {
		return nil, e
	}
	ch := s.lookupChannel(q.form.Get(arg))
	if ch == nil || !ch.visible() {
		return nil, fail("channel_not_found")
	}
	if !ch.botMember() {
		return nil, fail("not_in_channel")
	}
	if ch.Archived {
		return nil, fail("is_archived")
	}
	return ch, nil
}

// content reads text and blocks, checking what Slack checks.
func (q *apiReq) content() (string, json.RawMessage, *apiError) {
	text := q.form.Get("text")
	var blocks json.RawMessage
	if b := q.form.Get("blocks"); b != "" {
		var arr []json.RawMessage
		if json.Unmarshal([]byte(b), &arr) != nil {
			return "", nil, fail("invalid_blocks_format")
		}
		if len(arr) > 0 {
			blocks = json.RawMessage(b)
		}
	}
	if text == "" && blocks == nil && q.form.Get("attachments") == "" {
		return "", nil, fail("no_text")
	}
	if utf8.RuneCountInString(text) > maxText {
		return "", nil, fail("msg_too_long")
	}
	return text, blocks, nil
}

// threadRoot resolves thread_ts to the thread's parent; a reply's ts joins its thread.
func threadRoot(ch *channel, ts string) (string, *apiError) {
	if ts == "" {
		return "", nil
	}
	p := ch.find(ts)
	if p == nil || (p.deleted && len(ch.replies(p.ts)) == 0) {
		return "", fail("thread_not_found")
	}
	if p.isReply() {
		return p.threadTS, nil
	}
	return p.ts, nil
}

// botMessage stores a message posted by the bot and queues its echo. Call it with s.mu held.
func (s *Server) botMessage(ch *channel, threadTS, text string, blocks json.RawMessage, files []*file) *message {
	m := &message{user: s.cfg.botUser, botID: s.cfg.botID, appID: s.cfg.appID, text: text, blocks: blocks,
		threadTS: threadTS, files: files}
	if len(files) > 0 {
		m.subtype, m.upload = "file_share", true
	}
	m.ts, m.us = s.stamp()
	ch.insert(m)
	s.announce(ch, m)
	return m
}

// chatPostMessage takes channel, text, blocks, thread_ts; mrkdwn, unfurl_links, unfurl_media,
// parse, link_names, username, icon_* and reply_broadcast are accepted and ignored.
func (s *Server) chatPostMessage(q *apiReq) (obj, *apiError) {
	ch, e := s.writable(q, "channel")
	if e != nil {
		return nil, e
	}
	text, blocks, e := q.content()
	if e != nil {
		return nil, e
	}
	thread, e := threadRoot(ch, q.form.Get("thread_ts"))
	if e != nil {
		return nil, e
	}
	m := s.botMessage(ch, thread, text, blocks, nil)
	return obj{"channel": ch.ID, "ts": m.ts, "message": s.wire(ch, m)}, nil
}

// ownPost finds a message of the bot for chat.update and chat.delete.
func (s *Server) ownPost(q *apiReq, notMine string) (*channel, *message, *apiError) {
	if e := q.need("channel", "ts"); e != nil {
		return nil, nil, e
	}
	ch := s.lookupChannel(q.form.Get("channel"))
	if ch == nil || !ch.visible() {
		return nil, nil, fail("channel_not_found")
	}
	m := ch.find(q.form.Get("ts"))
	if m == nil || m.deleted {
		return nil, nil, fail("message_not_found")
	}
	if !s.ownMessage(m) {
		return nil, nil, fail(notMine)
	}
	return ch, m, nil
}

func (s *Server) chatUpdate(q *apiReq) (obj, *apiError) {
	ch, m, e := s.ownPost(q, "cant_update_message")
	if e != nil {
		return nil, e
	}
	text, blocks, e := q.content()
	if e != nil {
		return nil, e
	}
	s.noteEdit(ch, m, s.now())
	s.edit(ch, m, s.cfg.botUser, text, blocks)
	return obj{"channel": ch.ID, "ts": m.ts, "text": m.text, "message": s.wire(ch, m)}, nil
}

func (s *Server) chatDelete(q *apiReq) (obj, *apiError) {
	ch, m, e := s.ownPost(q, "cant_delete_message")
	if e != nil {
		return nil, e
	}
	s.remove(ch, m)
	return obj{"channel": ch.ID, "ts": m.ts}, nil
}
