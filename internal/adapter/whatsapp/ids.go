//go:build !nowhatsapp

package whatsapp

import (
	"errors"
	"fmt"
	"strings"

	"go.mau.fi/whatsmeow/types"
)

// How mom names WhatsApp's people and chats.
//
// A channel is a chat, named by its JID: "431234567@s.whatsapp.net" for a 1:1 chat (the
// person's phone number), "120363012345678901@g.us" for a group. A person is named by their
// phone number with a plus ("+431234567"), which is how config.json's "admins" and "dm" list
// them; someone WhatsApp shows only by a hidden id (a LID, in groups that hide numbers) is
// named by that JID ("123456789012345@lid").

// userID is the id mom knows a person by.
func userID(jid types.JID) string {
	jid = jid.ToNonAD()
	if jid.Server == types.DefaultUserServer {
		return "+" + jid.User
	}
	return jid.String()
}

// userJID is the JID of a person mom knows by id (userID's reverse).
func userJID(id string) (types.JID, error) {
	if digits, ok := strings.CutPrefix(id, "+"); ok {
		return types.NewJID(digits, types.DefaultUserServer), nil
	}
	jid, err := types.ParseJID(id)
	if err != nil || jid.User == "" {
		return types.JID{}, fmt.Errorf("%q is not a WhatsApp user (a phone number like +431234567, or a JID)", id)
	}
	return jid.ToNonAD(), nil
}

// chatJID is the JID of a channel.
func chatJID(channelID string) (types.JID, error) {
	jid, err := types.ParseJID(channelID)
	if err != nil || jid.User == "" || !strings.Contains(channelID, "@") {
		return types.JID{}, fmt.Errorf("%q is not a WhatsApp chat (a JID like 431234567@s.whatsapp.net or 120363012345678901@g.us)", channelID)
	}
	return jid, nil
}

// errLocalNumber is the mistake people make most when they list their own number.
var errLocalNumber = errors.New(`write the phone number the international way, with a plus and the country code, like "+431234567"`)

// canonicalUser reads a user id of config.json's "admins" or "dm" as userID spells it: a phone
// number with a plus, in any grouping ("+43 123-45 67"), or a JID
// ("431234567@s.whatsapp.net", "123456789012345@lid"). A number without the plus or the
// country code is refused, since WhatsApp could not tell whose it is.
func canonicalUser(id string) (string, error) {
	id = strings.TrimSpace(id)
	if strings.Contains(id, "@") {
		jid, err := types.ParseJID(id)
		switch {
		case err != nil || jid.User == "":
			return "", fmt.Errorf("%q is not a WhatsApp JID (like 431234567@s.whatsapp.net)", id)
		case jid.Server != types.DefaultUserServer && jid.Server != types.HiddenUserServer:
			return "", fmt.Errorf("%q is not a person's JID (a group's ids end in @g.us and belong in \"groups\")", id)
		}
		return userID(jid), nil
	}
	digits := strings.Map(func(r rune) rune {
		switch r {
		case ' ', '-', '.', '(', ')', '\u00a0':
			return -1
		}
		return r
	}, id)
	rest, plus := strings.CutPrefix(digits, "+")
	if rest == "" || strings.Trim(rest, "0123456789") != "" {
		return "", fmt.Errorf("%q is not a phone number or a WhatsApp JID; %w", id, errLocalNumber)
	}
	if !plus || rest[0] == '0' || len(rest) < 7 || len(rest) > 15 {
		return "", fmt.Errorf("%q: %w", id, errLocalNumber)
	}
	return "+" + rest, nil
}
