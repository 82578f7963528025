package faketelegram

import (
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"
)

// The bot's command menu, as the Bot API documents setMyCommands, getMyCommands and
// deleteMyCommands: a list of at most 100 BotCommand objects per scope and language, each
// command 1-32 characters of lowercase English letters, digits and underscores (a leading '/'
// is dropped, as Telegram's server does), each description 1-256 characters. A bad list is
// refused whole with Telegram's 400 descriptions, and recorded as a violation.

// BotCommand is one entry of the bot's command menu.
type BotCommand struct {
	Command     string `json:"command"`
	Description string `json:"description"`
}

// Bot API limits of setMyCommands.
const (
	maxCommands           = 100
	maxCommandLength      = 32
	maxCommandDescription = 256
)

var (
	commandName  = regexp.MustCompile(`^[a-z0-9_]+$`)
	languageCode = regexp.MustCompile(`^[a-z]{2}$`)
)

// DefaultScope is the menu scope of setMyCommands without a scope: every chat.
const DefaultScope = `{"type":"default"}`

// MyCommands returns the command menu set for scope (DefaultScope, or a BotCommandScope as
// JSON) and language code ("" for all languages), nil when none was set.
func (s *Server) MyCommands(scope, lang string) []BotCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	key, err := menuKey(map[string]string{"scope": scope, "language_code": lang})
	if err != nil {
		return nil
	}
	return slices.Clone(s.menus[key])
}

// menuKey names the menu a call addresses: its scope (by type and the chat and user it
// names) and language.
func menuKey(params map[string]string) (string, *apiError) {
	var sc struct {
		Type   string          `json:"type"`
		ChatID json.RawMessage `json:"chat_id"`
		UserID json.RawMessage `json:"user_id"`
	}
	sc.Type = "default"
	if raw := params["scope"]; raw != "" {
		if err := json.Unmarshal([]byte(raw), &sc); err != nil {
			return "", &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse BotCommandScope JSON object",
				violation: "scope is not a JSON object: " + raw}
		}
	}
	switch sc.Type {
	case "default", "all_private_chats", "all_group_chats", "all_chat_administrators":
	case "chat", "chat_administrators":
		if len(sc.ChatID) == 0 {
			return "", badRequest("chat_id is empty")
		}
	case "chat_member":
		if len(sc.ChatID) == 0 || len(sc.UserID) == 0 {
			return "", badRequest("chat_id and user_id must be specified")
		}
	default:
		return "", &apiError{code: http.StatusBadRequest, desc: "Bad Request: unsupported scope type specified",
			violation: fmt.Sprintf("bot command scope type %q", sc.Type)}
	}
	lang := params["language_code"]
	if lang != "" && !languageCode.MatchString(lang) {
		return "", badRequest("invalid language code specified")
	}
	return fmt.Sprintf("%s/%s/%s/%s", sc.Type, sc.ChatID, sc.UserID, lang), nil
}

func (s *Server) setMyCommands(r *request) (any, *apiError) {
	key, err := menuKey(r.params)
	if err != nil {
		return nil, err
	}
	list, err := parseCommands(r.params["commands"])
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		delete(s.menus, key)
		return true, nil
	}
	s.menus[key] = list
	return true, nil
}

func (s *Server) getMyCommands(r *request) (any, *apiError) {
	key, err := menuKey(r.params)
	if err != nil {
		return nil, err
	}
	out := s.menus[key]
	if out == nil {
		out = []BotCommand{}
	}
	return out, nil
}

func (s *Server) deleteMyCommands(r *request) (any, *apiError) {
	key, err := menuKey(r.params)
	if err != nil {
		return nil, err
	}
	delete(s.menus, key)
	return true, nil
}

// parseCommands reads and checks setMyCommands' commands parameter, a JSON array of
// BotCommand (a string of it in a form, the array itself in a JSON body).
func parseCommands(raw string) ([]BotCommand, *apiError) {
	if raw == "" {
		return nil, nil
	}
	var items []json.RawMessage
	if err := json.Unmarshal([]byte(raw), &items); err != nil {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse commands JSON object",
			violation: "commands is not a JSON array: " + raw}
	}
	if len(items) > maxCommands {
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: BOT_COMMANDS_TOO_MUCH",
			violation: fmt.Sprintf("%d commands (at most %d allowed)", len(items), maxCommands)}
	}
	out := make([]BotCommand, 0, len(items))
	for _, item := range items {
		var c struct {
			Command     *string `json:"command"`
			Description *string `json:"description"`
		}
		if err := json.Unmarshal(item, &c); err != nil || c.Command == nil || c.Description == nil {
			return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse BotCommand: field \"command\" and \"description\" must be strings",
				violation: "a command is not a BotCommand object: " + string(item)}
		}
		bc, err := checkCommand(*c.Command, *c.Description)
		if err != nil {
			return nil, err
		}
		out = append(out, bc)
	}
	return out, nil
}

// checkCommand checks one command as Telegram's server does: trimmed, without a leading '/'.
func checkCommand(command, description string) (BotCommand, *apiError) {
	fail := func(desc, why string) (BotCommand, *apiError) {
		return BotCommand{}, &apiError{code: http.StatusBadRequest, desc: "Bad Request: " + desc, violation: why}
	}
	command = strings.TrimPrefix(strings.TrimSpace(command), "/")
	description = strings.TrimSpace(description)
	switch {
	case command == "":
		return fail("command must be non-empty", "an empty command")
	case utf8.RuneCountInString(command) > maxCommandLength:
		return fail(fmt.Sprintf("command length must not exceed %d", maxCommandLength), fmt.Sprintf("command %q is over %d characters", command, maxCommandLength))
	case !commandName.MatchString(command):
		return fail("BOT_COMMAND_INVALID", fmt.Sprintf("command %q has characters other than a-z, 0-9 and _", command))
	case description == "":
		return fail("command description must be non-empty", fmt.Sprintf("command %q has no description", command))
	case utf8.RuneCountInString(description) > maxCommandDescription:
		return fail(fmt.Sprintf("command description length must not exceed %d", maxCommandDescription),
			fmt.Sprintf("the description of %q is %d characters", command, utf8.RuneCountInString(description)))
	}
	return BotCommand{Command: command, Description: description}, nil
}
