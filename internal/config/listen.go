package config

import (
	"fmt"
	"net"
	"strconv"
)

// ListenProblem says what is wrong with addr as an address to listen on (example shows a good
// one), or "" when it is a host:port with a valid port: for "health" and for platforms that
// listen on an address of their own.
func ListenProblem(addr, example string) string {
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		return fmt.Sprintf("%q is not a host:port address like %q", addr, example)
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		return fmt.Sprintf("%q has no valid port (0 to 65535)", addr)
	}
	return ""
}
