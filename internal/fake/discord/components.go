package fakediscord

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
)

// Message components, as Discord documents them
// (https://discord.com/developers/docs/components/reference): a message's components are up
// to five action rows (type 1), each of one to five buttons (type 2) with a style, a label of
// at most 80 characters and, unless it is a link, a custom_id of at most 100 characters,
// unique in the message. Create Message and Edit Message take them as "components"; an edit
// with "components": [] (or null) takes them away, one without the field keeps them.

// Component types and button styles the fake knows.
const (
	componentActionRow = 1
	componentButton    = 2

	ButtonPrimary   = 1
	ButtonSecondary = 2
	ButtonSuccess   = 3
	ButtonDanger    = 4
	ButtonLink      = 5
	ButtonPremium   = 6
)

// Button is a button of a message, as people see it.
type Button struct {
	// Style is one of the Button… styles.
	Style    int
	Label    string
	CustomID string
	// URL is a link button's address.
	URL      string
	Disabled bool
}

// wireComponent is as much of a component as the fake reads.
type wireComponent struct {
	Type       *int            `json:"type"`
	Components []wireComponent `json:"components"`
	Style      int             `json:"style"`
	Label      string          `json:"label"`
	CustomID   *string         `json:"custom_id"`
	URL        string          `json:"url"`
	Disabled   bool            `json:"disabled"`
}

// readComponents reads and checks a message's "components" field: rows of buttons. A
// mistake is a violation of route, answered with Discord's 50035 Invalid Form Body naming the
// field. Call it with s.mu held.
func (s *Server) readComponents(route string, raw json.RawMessage) ([][]Button, *restError) {
	var rows []wireComponent
	if err := json.Unmarshal(raw, &rows); err != nil {
		s.Violate("%s with components that are not an array of action rows: %.200s", route, raw)
		return nil, formError([]string{"components"}, "MODEL_TYPE_CONVERT", "Only iterables may be used in a ListType")
	}
	fail := func(code, msg string, path ...string) ([][]Button, *restError) {
		s.Violate("%s: components.%s: %s", route, strings.Join(path, "."), msg)
		return nil, formError(append([]string{"components"}, path...), code, msg)
	}
	if len(rows) > 5 {
		return fail("BASE_TYPE_MAX_LENGTH", "Must be 5 or fewer in length.")
	}
	var out [][]Button
	seen := map[string]bool{}
	for i, r := range rows {
		ri := strconv.Itoa(i)
		if r.Type == nil || *r.Type != componentActionRow {
			return fail("UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (1,).", ri, "type")
		}
		if len(r.Components) < 1 || len(r.Components) > 5 {
			return fail("BASE_TYPE_BAD_LENGTH", "Must be between 1 and 5 in length.", ri, "components")
		}
		var row []Button
		for j, c := range r.Components {
			ci := strconv.Itoa(j)
			if c.Type == nil || *c.Type != componentButton {
				return fail("UNION_TYPE_CHOICES", "Value of field \"type\" must be one of (2, 3, 5, 6, 7, 8).", ri, "components", ci, "type")
			}
			if c.Style < ButtonPrimary || c.Style > ButtonPremium {
				return fail("BASE_TYPE_CHOICES", "Value must be one of (1, 2, 3, 4, 5, 6).", ri, "components", ci, "style")
			}
			if n := len([]rune(c.Label)); n > 80 {
				return fail("BASE_TYPE_MAX_LENGTH", "Must be 80 or fewer in length.", ri, "components", ci, "label")
			}
			b := Button{Style: c.Style, Label: c.Label, URL: c.URL, Disabled: c.Disabled}
			switch {
			case c.Style == ButtonLink:
				if c.URL == "" || c.CustomID != nil {
					return fail("BUTTON_COMPONENT_INVALID_URL_OR_CUSTOM_ID", "A link button needs a url and no custom_id.", ri, "components", ci)
				}
			case c.CustomID == nil || *c.CustomID == "":
				return fail("BASE_TYPE_REQUIRED", "This field is required", ri, "components", ci, "custom_id")
			case len([]rune(*c.CustomID)) > 100:
				return fail("BASE_TYPE_MAX_LENGTH", "Must be 100 or fewer in length.", ri, "components", ci, "custom_id")
			case seen[*c.CustomID]:
				return fail("COMPONENT_CUSTOM_ID_DUPLICATED", "Component custom id cannot be duplicated", ri, "components", ci, "custom_id")
			default:
				b.CustomID = *c.CustomID
				seen[b.CustomID] = true
			}
			if c.Label == "" && c.Style != ButtonPremium {
				return fail("BASE_TYPE_REQUIRED", "A button needs a label or an emoji.", ri, "components", ci, "label")
			}
			row = append(row, b)
		}
		out = append(out, row)
	}
	return out, nil
}

// formError is a 50035 Invalid Form Body whose errors name the field at path, nested as
// Discord nests them ({"components": {"0": {"components": {"1": {"custom_id": {"_errors":
// [...]}}}}}}).
func formError(path []string, code, msg string) *restError {
	var v any = map[string]any{"_errors": []any{map[string]any{"code": code, "message": msg}}}
	for i := len(path) - 1; i > 0; i-- {
		v = map[string]any{path[i]: v}
	}
	return &restError{status: http.StatusBadRequest, code: 50035, msg: "Invalid Form Body",
		errors: map[string]any{path[0]: v}}
}

// wireComponents is a message's components as Discord sends them, with the numeric ids it
// gives every component in order.
func wireComponents(rows [][]Button) []any {
	out := []any{}
	id := 0
	for _, row := range rows {
		id++
		rowID := id
		var bs []any
		for _, b := range row {
			id++
			w := map[string]any{"type": componentButton, "id": id, "style": b.Style, "label": b.Label}
			if b.URL != "" {
				w["url"] = b.URL
			} else {
				w["custom_id"] = b.CustomID
			}
			if b.Disabled {
				w["disabled"] = true
			}
			bs = append(bs, w)
		}
		out = append(out, map[string]any{"type": componentActionRow, "id": rowID, "components": bs})
	}
	return out
}

// button finds the button with customID among rows.
func button(rows [][]Button, customID string) (Button, bool) {
	for _, row := range rows {
		if i := slices.IndexFunc(row, func(b Button) bool { return b.CustomID == customID }); i >= 0 {
			return row[i], true
		}
	}
	return Button{}, false
}

// Buttons returns the buttons the message shows now, row after row.
func (s *Server) Buttons(channelID, messageID string) []Button {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.channels[channelID]
	if ch == nil {
		return nil
	}
	m := ch.find(messageID)
	if m == nil {
		return nil
	}
	var out []Button
	for _, row := range m.rows {
		out = append(out, row...)
	}
	return out
}

// errNoButton says a person cannot press what the message does not show.
func errNoButton(m *message, customID string) error {
	var ids []string
	for _, row := range m.rows {
		for _, b := range row {
			ids = append(ids, b.CustomID)
		}
	}
	return fmt.Errorf("fakediscord: message %s has no button %q (it has %q)", m.ID, customID, ids)
}
