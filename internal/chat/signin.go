package chat

import (
	"errors"
	"fmt"
	"net"
)

// SignInError words the failure of an adapter's first call to its platform, the one that
// checks the token (call names it, e.g. "auth.test"). Only a refusal (refused, as the
// platform's library tells it) is the token's fault; a platform that cannot be reached, or
// answers with a server error, says nothing about the token, and blaming it would send the
// person setting mom up after the wrong thing.
func SignInError(platform, call string, err error, refused bool) error {
	if refused {
		return fmt.Errorf("%s did not accept the bot token (%s): %w", platform, call, err)
	}
	var ne net.Error
	if errors.As(err, &ne) {
		return fmt.Errorf("could not reach %s (%s): %w (check the network, a proxy, and the adapter's apiUrl if one is set)", platform, call, err)
	}
	return fmt.Errorf("could not sign in to %s (%s): %w", platform, call, err)
}
