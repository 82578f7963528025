package web

import (
	"context"
	"fmt"
	"strings"
)

// MemberChannels returns every web channel mom knows, for the sandbox's user isolation: the
// default one, those created from the page and any other with a directory under
// channels/<adapter>/. Whoever holds the web chat's token can open each of them in the page,
// so each is theirs; the display name is not an account and shuts no one out.
func (a *Adapter) MemberChannels(ctx context.Context, userID string) ([]string, error) {
	name, ok := strings.CutPrefix(userID, "web:")
	if u, err := person(name, a.Bot().Username); !ok || err != nil || u.ID != userID {
		return nil, fmt.Errorf("%q is not a web chat person's id (web:<display name>)", userID)
	}
	ids, err := a.channelIDs()
	if err != nil {
		return nil, fmt.Errorf("list the web chat's channels: %w", err)
	}
	return ids, nil
}
