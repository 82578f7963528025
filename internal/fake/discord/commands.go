package fakediscord

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Application commands, as Discord documents them
// (https://discord.com/developers/docs/interactions/application-commands): the bot's
// application bulk-overwrites its global commands with PUT /applications/{application.id}/
// commands (the whole list; a command that keeps its name and type keeps its id) and reads them
// with GET. A CHAT_INPUT command (type 1, a slash command) has a lowercase name of 1-32
// letters, digits, '-', '_' or '\'', a description of 1-100 characters and up to 25 options
// with the same rules, the required ones first; names are unique per type, and an application
// has at most 100 slash commands. A bad list is refused whole with 50035 Invalid Form Body
// naming the field. A person's invocation (Invoke) is dispatched as INTERACTION_CREATE type 2
// APPLICATION_COMMAND, answered through the same callback as a button press; a message
// response (type 4) appears in the channel as the bot's message of type 20 CHAT_INPUT_COMMAND
// with interaction_metadata.

// Application command types, option types and interaction contexts the fake knows.
const (
	CommandChatInput = 1
	OptionString     = 3

	ContextGuild          = 0
	ContextBotDM          = 1
	ContextPrivateChannel = 2

	interactionTypeCommand = 2
	maxSlashCommands       = 100
	maxOptions             = 25
)

// commandName is what Discord takes as a CHAT_INPUT command's or option's name.
var commandName = regexp.MustCompile(`^[-_'\p{L}\p{N}\p{Devanagari}\p{Thai}]{1,32}$`)

// ApplicationCommand is a global command of the bot's application, as Discord keeps it.
type ApplicationCommand struct {
	ID, Name, Description string
	// Type is the command's type; CommandChatInput for a slash command.
	Type    int
	Options []CommandOption
	// Contexts are where it may be used (Context…); nil means everywhere.
	Contexts []int
}

// CommandOption is an option of a slash command.
type CommandOption struct {
	// Type is the option's type; OptionString for text.
	Type              int
	Name, Description string
	Required          bool
}

// wireCommand is as much of an application command as the fake reads.
type wireCommand struct {
	Type             *int         `json:"type"`
	Name             string       `json:"name"`
	Description      string       `json:"description"`
	Options          []wireOption `json:"options"`
	Contexts         []int        `json:"contexts"`
	IntegrationTypes []int        `json:"integration_types"`
}

type wireOption struct {
	Type        int          `json:"type"`
	Name        string       `json:"name"`
	Description string       `json:"description"`
	Required    bool         `json:"required"`
	Options     []wireOption `json:"options"`
}

// GlobalCommands returns the bot's global application commands, in the order it set them.
func (s *Server) GlobalCommands() []ApplicationCommand {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]ApplicationCommand, 0, len(s.commands))
	for _, c := range s.commands {
		c.Options = slices.Clone(c.Options)
		c.Contexts = slices.Clone(c.Contexts)
		out = append(out, c)
	}
	return out
}

// applicationRoute serves /applications/{id}/commands. Call it with s.mu held.
func (s *Server) applicationRoute(route, appID string, body []byte) (int, any, *restError) {
	if appID != s.cfg.appID {
		s.Violate("%s for application %s, which is not the bot's (%s)", route, appID, s.cfg.appID)
		return 0, nil, &restError{status: http.StatusForbidden, code: 50001, msg: "Missing Access"}
	}
	if strings.HasPrefix(route, "GET ") {
		return http.StatusOK, s.wireCommands(), nil
	}
	var list []wireCommand
	if err := json.Unmarshal(body, &list); err != nil {
		s.Violate("%s body is not a JSON array of application commands: %v", route, err)
		return 0, nil, &restError{status: http.StatusBadRequest, code: 50109, msg: "The request body contains invalid JSON."}
	}
	cmds, rerr := s.checkCommands(route, list)
	if rerr != nil {
		return 0, nil, rerr
	}
	ids := map[string]string{}
	for _, c := range s.commands {
		ids[strconv.Itoa(c.Type)+"/"+c.Name] = c.ID
	}
	for i := range cmds {
		if id := ids[strconv.Itoa(cmds[i].Type)+"/"+cmds[i].Name]; id != "" {
			cmds[i].ID = id
		} else {
			cmds[i].ID = s.snowflake()
		}
	}
	s.commands = cmds
	return http.StatusOK, s.wireCommands(), nil
}

// checkCommands checks a bulk overwrite as Discord does. Call it with s.mu held.
func (s *Server) checkCommands(route string, list []wireCommand) ([]ApplicationCommand, *restError) {
	fail := func(code, msg string, path ...string) ([]ApplicationCommand, *restError) {
		s.Violate("%s: %s: %s", route, strings.Join(path, "."), msg)
		return nil, formError(path, code, msg)
	}
	var out []ApplicationCommand
	seen := map[string]bool{}
	slash := 0
	for i, c := range list {
		at := strconv.Itoa(i)
		kind := CommandChatInput
		if c.Type != nil {
			kind = *c.Type
		}
		if kind < 1 || kind > 4 {
			return fail("BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4}.", at, "type")
		}
		if kind == CommandChatInput {
			slash++
			if code, msg, field := checkName(c.Name); code != "" {
				return fail(code, msg, at, field)
			}
			if n := len([]rune(c.Description)); n < 1 || n > 100 {
				return fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.", at, "description")
			}
		} else if c.Description != "" {
			return fail("APPLICATION_COMMAND_INVALID_DESCRIPTION", "Description must be empty for context menu commands.", at, "description")
		}
		key := strconv.Itoa(kind) + "/" + c.Name
		if seen[key] {
			return fail("APPLICATION_COMMANDS_DUPLICATE_NAME", "Application command names must be unique", at, "name")
		}
		seen[key] = true
		for j, ctx := range c.Contexts {
			if ctx < ContextGuild || ctx > ContextPrivateChannel {
				return fail("BASE_TYPE_CHOICES", "Value must be one of {0, 1, 2}.", at, "contexts", strconv.Itoa(j))
			}
		}
		for j, it := range c.IntegrationTypes {
			if it != 0 && it != 1 {
				return fail("BASE_TYPE_CHOICES", "Value must be one of {0, 1}.", at, "integration_types", strconv.Itoa(j))
			}
		}
		opts, code, msg, path := checkOptions(c.Options)
		if code != "" {
			return fail(code, msg, append([]string{at, "options"}, path...)...)
		}
		if kind != CommandChatInput && len(opts) > 0 {
			return fail("APPLICATION_COMMAND_OPTIONS_INVALID", "Only slash commands take options.", at, "options")
		}
		out = append(out, ApplicationCommand{Name: c.Name, Description: c.Description, Type: kind, Options: opts, Contexts: c.Contexts})
	}
	if slash > maxSlashCommands {
		s.Violate("%s: %d slash commands; an application may have at most %d", route, slash, maxSlashCommands)
		return nil, &restError{status: http.StatusBadRequest, code: 30032, msg: "Maximum number of application commands reached (100)"}
	}
	return out, nil
}

// checkName checks a slash command's or option's name; code is "" when it is good.
func checkName(name string) (code, msg, field string) {
	if !commandName.MatchString(name) || strings.ToLower(name) != name {
		return "APPLICATION_COMMAND_INVALID_NAME", "Command name is invalid", "name"
	}
	return "", "", ""
}

// checkOptions checks a slash command's options; code is "" when they are good, else path
// names the field below "options".
func checkOptions(list []wireOption) (out []CommandOption, code, msg string, path []string) {
	if len(list) > maxOptions {
		return nil, "BASE_TYPE_MAX_LENGTH", "Must be 25 or fewer in length.", nil
	}
	seen := map[string]bool{}
	optional := false
	for i, o := range list {
		at := strconv.Itoa(i)
		if o.Type < 1 || o.Type > 11 {
			return nil, "BASE_TYPE_CHOICES", "Value must be one of {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11}.", []string{at, "type"}
		}
		if code, msg, field := checkName(o.Name); code != "" {
			return nil, code, msg, []string{at, field}
		}
		if n := len([]rune(o.Description)); n < 1 || n > 100 {
			return nil, "BASE_TYPE_BAD_LENGTH", "Must be between 1 and 100 in length.", []string{at, "description"}
		}
		if seen[o.Name] {
			return nil, "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS", "Option names must be unique", []string{at, "name"}
		}
		seen[o.Name] = true
		if o.Required && optional {
			return nil, "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID", "Required options must be placed before non-required options", []string{at, "required"}
		}
		optional = optional || !o.Required
		if o.Type <= 2 {
			return nil, "APPLICATION_COMMAND_OPTIONS_TYPE_INVALID", "The fake does not take subcommands.", []string{at, "type"}
		}
		out = append(out, CommandOption{Type: o.Type, Name: o.Name, Description: o.Description, Required: o.Required})
	}
	return out, "", "", nil
}

// wireCommands is the bot's commands as Discord answers them. Call it with s.mu held.
func (s *Server) wireCommands() []any {
	out := []any{}
	for _, c := range s.commands {
		opts := []any{}
		for _, o := range c.Options {
			opts = append(opts, map[string]any{"type": o.Type, "name": o.Name, "description": o.Description, "required": o.Required})
		}
		w := map[string]any{"id": c.ID, "application_id": s.cfg.appID, "version": c.ID, "type": c.Type,
			"name": c.Name, "description": c.Description, "default_member_permissions": nil, "nsfw": false,
			"integration_types": []int{0}, "contexts": c.Contexts, "options": opts}
		if c.Contexts == nil {
			w["contexts"] = nil
		}
		out = append(out, w)
	}
	return out
}

// Invoke has userID use the bot's slash command name in channelID, with options (the values
// of string options, by name; nil for none), as picking it in Discord's command menu does, and
// dispatches the APPLICATION_COMMAND interaction. It returns the interaction's id, or an
// error where Discord would not offer the command: the bot has no such slash command, it is not
// for that kind of channel (contexts), the person cannot see the channel, or the options do not
// fit it.
func (s *Server) Invoke(userID, channelID, name string, options map[string]string) (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, err := s.seenBy(userID, channelID)
	if err != nil {
		return "", err
	}
	i := slices.IndexFunc(s.commands, func(c ApplicationCommand) bool { return c.Type == CommandChatInput && c.Name == name })
	if i < 0 {
		return "", fmt.Errorf("fakediscord: the bot has no slash command /%s", name)
	}
	cmd := s.commands[i]
	where := ContextGuild
	if ch.Kind == KindDM {
		where = ContextBotDM
	}
	if cmd.Contexts != nil && !slices.Contains(cmd.Contexts, where) {
		return "", fmt.Errorf("fakediscord: /%s is not offered in channel %s (contexts %v)", name, channelID, cmd.Contexts)
	}
	var wireOpts []any
	for _, o := range cmd.Options {
		v, given := options[o.Name]
		switch {
		case !given && o.Required:
			return "", fmt.Errorf("fakediscord: /%s needs option %s", name, o.Name)
		case given && o.Type != OptionString:
			return "", fmt.Errorf("fakediscord: option %s of /%s is not a string; Invoke passes only strings", o.Name, name)
		case given:
			wireOpts = append(wireOpts, map[string]any{"name": o.Name, "type": o.Type, "value": v})
		}
	}
	for k := range options {
		if !slices.ContainsFunc(cmd.Options, func(o CommandOption) bool { return o.Name == k }) {
			return "", fmt.Errorf("fakediscord: /%s has no option %s", name, k)
		}
	}
	id := s.snowflake()
	in := &interaction{Interaction: Interaction{ID: id, UserID: userID, ChannelID: channelID, Command: name, Options: options},
		kind: interactionTypeCommand, token: interactionToken(id), at: time.Now()}
	s.interactions = append(s.interactions, in)
	data := map[string]any{"id": cmd.ID, "name": cmd.Name, "type": CommandChatInput}
	if wireOpts != nil {
		data["options"] = wireOpts
	}
	d := s.wireInteraction(in, ch)
	d["data"] = data
	s.dispatch("INTERACTION_CREATE", 0, func(int64) any { return d })
	return id, nil
}

// interactionToken is a token shaped like Discord's, unique to the interaction.
func interactionToken(id string) string {
	return base64.RawURLEncoding.EncodeToString([]byte("interaction:" + id + ":" + randomHex(48)))
}
