package faketelegram

import (
	"context"
	"strings"
	"testing"

	"github.com/go-telegram/bot"
	"github.com/go-telegram/bot/models"
)

// TestCommandMenu: the library's setMyCommands (a multipart form) sets the default menu,
// getMyCommands reads it back, a scoped menu is its own, and deleteMyCommands clears one.
func TestCommandMenu(t *testing.T) {
	t.Parallel()
	s := newServer(t)
	b := client(t, s)
	ctx := context.Background()
	want := []models.BotCommand{{Command: "help", Description: "list the commands"}, {Command: "cost", Description: "spend today"}}
	if ok, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: want}); err != nil || !ok {
		t.Fatalf("setMyCommands = %v, %v", ok, err)
	}
	got, err := b.GetMyCommands(ctx, &bot.GetMyCommandsParams{})
	if err != nil || len(got) != 2 || got[1].Command != "cost" || got[1].Description != "spend today" {
		t.Fatalf("getMyCommands = %+v, %v", got, err)
	}
	if m := s.MyCommands(DefaultScope, ""); len(m) != 2 || m[0].Command != "help" {
		t.Errorf("MyCommands = %+v", m)
	}
	if _, err := b.SetMyCommands(ctx, &bot.SetMyCommandsParams{Commands: want[:1],
		Scope: &models.BotCommandScopeAllGroupChats{}, LanguageCode: "de"}); err != nil {
		t.Fatal(err)
	}
	if m := s.MyCommands(`{"type":"all_group_chats"}`, "de"); len(m) != 1 {
		t.Errorf("the German group menu = %+v", m)
	}
	if m := s.MyCommands(DefaultScope, ""); len(m) != 2 {
		t.Errorf("a scoped menu changed the default one: %+v", m)
	}
	if _, err := b.DeleteMyCommands(ctx, &bot.DeleteMyCommandsParams{}); err != nil {
		t.Fatal(err)
	}
	if m := s.MyCommands(DefaultScope, ""); m != nil {
		t.Errorf("deleteMyCommands left %+v", m)
	}
	noViolations(t, s)
}

// TestCommandMenuRefusals: what Telegram refuses is refused whole, with its descriptions, and
// recorded as the client's mistake.
func TestCommandMenuRefusals(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 257)
	many := make([]map[string]any, 101)
	for i := range many {
		many[i] = map[string]any{"command": "c", "description": "d"}
	}
	for _, tt := range []struct {
		name     string
		commands any
		desc     string
	}{
		{"upper case", []map[string]any{{"command": "Cost", "description": "spend"}}, "Bad Request: BOT_COMMAND_INVALID"},
		{"hyphen", []map[string]any{{"command": "mom-cost", "description": "spend"}}, "Bad Request: BOT_COMMAND_INVALID"},
		{"too long", []map[string]any{{"command": strings.Repeat("c", 33), "description": "spend"}}, "Bad Request: command length must not exceed 32"},
		{"empty", []map[string]any{{"command": "/", "description": "spend"}}, "Bad Request: command must be non-empty"},
		{"no description", []map[string]any{{"command": "cost", "description": "  "}}, "Bad Request: command description must be non-empty"},
		{"long description", []map[string]any{{"command": "cost", "description": long}}, "Bad Request: command description length must not exceed 256"},
		{"too many", many, "Bad Request: BOT_COMMANDS_TOO_MUCH"},
		{"not an array", "cost", "Bad Request: can't parse commands JSON object"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newServer(t)
			status, ans := call(t, s, "setMyCommands", map[string]any{"commands": tt.commands})
			if status != 400 || ans["description"] != tt.desc {
				t.Errorf("answer %d %v; want 400 %q", status, ans, tt.desc)
			}
			if len(s.Violations()) != 1 {
				t.Errorf("violations = %q; want the refusal recorded", s.Violations())
			}
			if c := s.Calls("setMyCommands"); len(c) != 1 || c[0].Error != tt.desc {
				t.Errorf("calls = %+v", c)
			}
		})
	}
	s := newServer(t)
	if status, _ := call(t, s, "setMyCommands", map[string]any{"commands": []map[string]any{{"command": "/cost", "description": " spend "}}}); status != 200 {
		t.Fatalf("a leading slash and spaces are dropped, not refused: %d", status)
	}
	if m := s.MyCommands(DefaultScope, ""); len(m) != 1 || m[0].Command != "cost" || m[0].Description != "spend" {
		t.Errorf("menu = %+v", m)
	}
}
