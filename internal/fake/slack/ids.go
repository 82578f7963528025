package fakeslack

import (
	"crypto/rand"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// stamp returns a fresh message timestamp: the real clock in microseconds, bumped so that
// timestamps strictly increase and never repeat. Call it with s.mu held.
func (s *Server) stamp() (string, int64) {
	us := max(s.now().UnixMicro(), s.lastUS+1)
	return s.take(us)
}

// stampAt returns an unused timestamp at t or just after it, for backdated messages.
func (s *Server) stampAt(t time.Time) (string, int64) {
	us := t.UnixMicro()
	for s.usedUS[us] {
		us++
	}
	return s.take(us)
}

func (s *Server) take(us int64) (string, int64) {
	s.usedUS[us] = true
	s.lastUS = max(s.lastUS, us)
	return formatTS(us), us
}

func formatTS(us int64) string { return fmt.Sprintf("%d.%06d", us/1e6, us%1e6) }

// parseTS reads a Slack timestamp ("1700000000.000100", or whole seconds) as microseconds.
func parseTS(ts string) (int64, bool) {
	sec, frac, _ := strings.Cut(ts, ".")
	n, err := strconv.ParseInt(sec, 10, 64)
	if err != nil || n < 0 {
		return 0, false
	}
	if len(frac) > 6 {
		frac = frac[:6]
	}
	frac += strings.Repeat("0", 6-len(frac))
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil || f < 0 {
		return 0, false
	}
	return n*1e6 + f, true
}

// id returns a fresh Slack-style id: prefix and a base-36 counter, upper case.
func (s *Server) id(prefix string, width int) string {
	s.seq++
	n := strings.ToUpper(strconv.FormatInt(int64(s.seq), 36))
	if len(n) < width {
		n = strings.Repeat("0", width-len(n)) + n
	}
	return prefix + n
}

// uuid returns a random version 4 UUID, the shape of envelope ids and client_msg_id.
func uuid() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
