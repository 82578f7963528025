package fakediscord

import (
	"strings"
	"testing"

	"github.com/disgoorg/disgo/discord"
	"github.com/disgoorg/disgo/rest"
	"github.com/disgoorg/snowflake/v2"
)

// TestSlashCommandsRegisteredAndInvoked: disgo's bulk overwrite sets the global commands and
// keeps a command's id across overwrites; Invoke dispatches an APPLICATION_COMMAND that disgo
// decodes, with its options; a message response shows in the channel as a type 20 message of
// the bot, and the interaction records it.
func TestSlashCommandsRegisteredAndInvoked(t *testing.T) {
	t.Parallel()
	s := newTestServer(t)
	c := joined(t, s, IntentGuilds|IntentGuildMessages|IntentMessageContent)
	base := len(s.Violations()) // the fake holds mom to the DM intent
	client := rest.NewClient(s.Token(), rest.WithURL(s.URL()+"/v10"), rest.WithUserAgent("DiscordBot (https://example.com, 1)"))
	apps := rest.NewApplications(client)
	appID := snowflake.MustParse(s.BotID())
	cmds := []discord.ApplicationCommandCreate{
		discord.SlashCommandCreate{Name: "help", Description: "list the commands"},
		discord.SlashCommandCreate{Name: "compact", Description: "compact now", Options: []discord.ApplicationCommandOption{
			discord.ApplicationCommandOptionString{Name: "focus", Description: "what to keep"}}},
	}
	got, err := apps.SetGlobalCommands(appID, cmds)
	if err != nil || len(got) != 2 || got[1].Name() != "compact" {
		t.Fatalf("SetGlobalCommands = %+v, %v", got, err)
	}
	again, err := apps.SetGlobalCommands(appID, cmds[1:])
	if err != nil || len(again) != 1 || again[0].ID() != got[1].ID() {
		t.Fatalf("a second overwrite = %+v, %v; want compact alone, with its id kept", again, err)
	}
	if gc := s.GlobalCommands(); len(gc) != 1 || gc[0].Options[0].Name != "focus" || gc[0].Options[0].Type != OptionString {
		t.Errorf("GlobalCommands = %+v", gc)
	}
	if _, err := s.Invoke(ada, general, "help", nil); err == nil {
		t.Error("invoked /help, which the overwrite removed")
	}
	if _, err := s.Invoke(ada, general, "compact", map[string]string{"topic": "x"}); err == nil {
		t.Error("invoked /compact with an option it does not have")
	}
	iid, err := s.Invoke(ada, general, "compact", map[string]string{"focus": "the plan"})
	if err != nil {
		t.Fatal(err)
	}
	sent, raw := c.interaction()
	ai, ok := sent.(discord.ApplicationCommandInteraction)
	if !ok {
		t.Fatalf("INTERACTION_CREATE is not an application command: %s", raw)
	}
	data := ai.SlashCommandInteractionData()
	if focus, _ := data.OptString("focus"); ai.ID().String() != iid || data.CommandName() != "compact" || focus != "the plan" ||
		ai.Member() == nil || ai.User().ID.String() != ada || ai.Channel().ID().String() != general {
		t.Fatalf("INTERACTION_CREATE = %s", raw)
	}

	anon := restClient{t: t, s: s}
	path := "/interactions/" + iid + "/" + ai.Token() + "/callback"
	if code, out := anon.json("POST", path, map[string]any{"type": 6}); code != 400 || out["code"] != float64(40043) {
		t.Errorf("DEFERRED_UPDATE_MESSAGE for a slash command = %d %v; want 400", code, out)
	}
	if code, out := anon.json("POST", path, map[string]any{"type": 4, "data": map[string]any{"content": "/compact the plan"}}); code != 204 {
		t.Fatalf("callback = %d %v", code, out)
	}
	msg := c.dispatch("MESSAGE_CREATE")
	if !strings.Contains(string(msg.D), `"type":20`) || !strings.Contains(string(msg.D), `"interaction_metadata":{`) {
		t.Errorf("the response's MESSAGE_CREATE = %s; want type 20 with interaction_metadata", msg.D)
	}
	in := s.Interactions()
	if len(in) != 1 || in[0].Command != "compact" || in[0].Options["focus"] != "the plan" ||
		len(in[0].Responses) != 1 || in[0].Responses[0].Content != "/compact the plan" {
		t.Errorf("Interactions = %+v", in)
	}
	if v := s.Violations()[base:]; len(v) != 1 || !strings.Contains(v[0], "does not answer a slash command") {
		t.Errorf("violations = %q; want the wrong callback type alone", v)
	}
}

// TestSlashCommandsRefused: what Discord refuses in a bulk overwrite is refused whole with
// 50035 Invalid Form Body naming the field, and recorded.
func TestSlashCommandsRefused(t *testing.T) {
	t.Parallel()
	opt := func(name, desc string, required bool) map[string]any {
		return map[string]any{"type": 3, "name": name, "description": desc, "required": required}
	}
	for _, tt := range []struct {
		name  string
		cmd   map[string]any
		field string
	}{
		{"upper case", map[string]any{"name": "Cost", "description": "spend"}, `"0":{"name":{"_errors":[{"code":"APPLICATION_COMMAND_INVALID_NAME"`},
		{"space", map[string]any{"name": "mom cost", "description": "spend"}, `APPLICATION_COMMAND_INVALID_NAME`},
		{"33 characters", map[string]any{"name": strings.Repeat("c", 33), "description": "spend"}, `APPLICATION_COMMAND_INVALID_NAME`},
		{"no description", map[string]any{"name": "cost", "description": ""}, `"description":{"_errors":[{"code":"BASE_TYPE_BAD_LENGTH"`},
		{"101-character description", map[string]any{"name": "cost", "description": strings.Repeat("d", 101)}, `BASE_TYPE_BAD_LENGTH`},
		{"bad option name", map[string]any{"name": "model", "description": "d", "options": []any{opt("Name", "d", false)}},
			`"options":{"0":{"name":{"_errors"`},
		{"required after optional", map[string]any{"name": "model", "description": "d", "options": []any{opt("a", "d", false), opt("b", "d", true)}},
			`APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID`},
		{"long option description", map[string]any{"name": "model", "description": "d", "options": []any{opt("name", strings.Repeat("d", 101), false)}},
			`"options":{"0":{"description"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := newTestServer(t)
			rc := restClient{t: t, s: s, token: s.Token()}
			code, _, out := rc.do("PUT", "/applications/"+s.BotID()+"/commands", "application/json", []byte(toJSON([]any{tt.cmd})))
			if code != 400 || out["code"] != float64(50035) || !strings.Contains(toJSON(out["errors"]), tt.field) {
				t.Errorf("answer %d %s; want 400 Invalid Form Body with %s", code, toJSON(out), tt.field)
			}
			if len(s.Violations()) != 1 || len(s.GlobalCommands()) != 0 {
				t.Errorf("violations %q, commands %+v", s.Violations(), s.GlobalCommands())
			}
		})
	}
	s := newTestServer(t)
	rc := restClient{t: t, s: s, token: s.Token()}
	twice := []any{map[string]any{"name": "cost", "description": "a"}, map[string]any{"name": "cost", "description": "b"}}
	if code, _, out := rc.do("PUT", "/applications/"+s.BotID()+"/commands", "application/json", []byte(toJSON(twice))); code != 400 ||
		!strings.Contains(toJSON(out), "APPLICATION_COMMANDS_DUPLICATE_NAME") {
		t.Errorf("a name twice: %d %s", code, toJSON(out))
	}
	if code, _, _ := rc.do("PUT", "/applications/1234/commands", "application/json", []byte("[]")); code != 403 {
		t.Errorf("another application's commands: %d; want 403", code)
	}
}
