package fakeslack

import (
	"encoding/base64"
	"strings"
)

// encodeCursor makes an opaque pagination cursor in Slack's style, e.g. base64("user:U123").
func encodeCursor(kind, key string) string {
	return base64.StdEncoding.EncodeToString([]byte(kind + ":" + key))
}

// decodeCursor reads a cursor made by encodeCursor.
func decodeCursor(c, kind string) (string, bool) {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return "", false
	}
	return strings.CutPrefix(string(b), kind+":")
}

func (s *Server) authTest(*apiReq) (obj, *apiError) {
	return obj{"url": "https://" + s.teamDomain() + ".slack.com/", "team": s.cfg.teamName, "user": s.cfg.botName,
		"team_id": s.cfg.teamID, "user_id": s.cfg.botUser, "bot_id": s.cfg.botID, "is_enterprise_install": false}, nil
}

func (s *Server) appsConnectionsOpen(*apiReq) (obj, *apiError) {
	return obj{"url": s.openTicket()}, nil
}

// usersList pages through the members with a cursor of the form base64("user:<id>"), the id
// of the first member of the next page.
func (s *Server) usersList(q *apiReq) (obj, *apiError) {
	start := 0
	if c := q.form.Get("cursor"); c != "" {
		id, ok := decodeCursor(c, "user")
		start = -1
		for i, u := range s.users {
			if ok && u.ID == id {
				start = i
			}
		}
		if start < 0 {
			return nil, fail("invalid_cursor")
		}
	}
	n := s.limit(q, len(s.users))
	members := []wireUser{}
	end := min(start+n, len(s.users))
	for _, u := range s.users[start:end] {
		members = append(members, s.wireUser(u))
	}
	next := ""
	if end < len(s.users) {
		next = encodeCursor("user", s.users[end].ID)
	}
	return obj{"members": members, "cache_ts": s.now().Unix(), "response_metadata": obj{"next_cursor": next}}, nil
}

func (s *Server) usersInfo(q *apiReq) (obj, *apiError) {
	if e := q.need("user"); e != nil {
		return nil, e
	}
	u := s.user(q.form.Get("user"))
	if u == nil {
		return nil, fail("user_not_found")
	}
	return obj{"user": s.wireUser(u)}, nil
}
