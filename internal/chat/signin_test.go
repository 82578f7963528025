package chat

import (
	"errors"
	"net"
	"net/http"
	"strings"
	"testing"
)

func TestSignInError(t *testing.T) {
	_, dialErr := net.Dial("tcp", "127.0.0.1:1") // nothing listens on port 1
	if dialErr == nil {
		t.Skip("something listens on 127.0.0.1:1, so no unreachable address to try")
	}
	_, httpErr := http.Get("http://127.0.0.1:1/api/auth.test")
	cases := []struct {
		err     error
		refused bool
		want    string
	}{
		{errors.New("invalid_auth"), true, "Slack did not accept the bot token (auth.test): invalid_auth"},
		{dialErr, false, "could not reach Slack (auth.test): dial tcp 127.0.0.1:1"},
		{httpErr, false, "could not reach Slack (auth.test): Get \"http://127.0.0.1:1/api/auth.test\""},
		{errors.New("internal_error"), false, "could not sign in to Slack (auth.test): internal_error"},
	}
	for _, c := range cases {
		got := SignInError("Slack", "auth.test", c.err, c.refused)
		if !strings.HasPrefix(got.Error(), c.want) || !errors.Is(got, c.err) {
			t.Errorf("SignInError(%v, %v) = %q; want it to start %q and wrap the error", c.err, c.refused, got, c.want)
		}
	}
}
