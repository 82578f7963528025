package fakeslack_test

import (
	"strings"
	"testing"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

// TestSlashCommandDelivery: a declared slash command reaches slack-go as a slash_commands
// envelope it decodes into slack.SlashCommand, with the fields Slack sends; the ack's
// response is shown to the person alone (ephemeral) or posted (in_channel); an undeclared
// command, or one in a conversation the person is not in, is never sent.
func TestSlashCommandDelivery(t *testing.T) {
	t.Parallel()
	srv := start(t, fakeslack.WithSlashCommands("/mom"))
	c := runSocket(t, srv)
	c.next(t, socketmode.EventTypeHello)

	if _, err := srv.SlashCommand("U1", "C1", "/other", "x"); err == nil {
		t.Error("delivered a command the app does not have")
	}
	if _, err := srv.SlashCommand("U2", "D1", "/mom", "x"); err == nil {
		t.Error("delivered a command from someone outside the IM")
	}
	id, err := srv.SlashCommand("U1", "C1", "/mom", "model local")
	if err != nil {
		t.Fatal(err)
	}
	e := c.next(t, socketmode.EventTypeSlashCommand)
	cmd, ok := e.Data.(slack.SlashCommand)
	if !ok || e.Request == nil || e.Request.EnvelopeID != id || !e.Request.AcceptsResponsePayload {
		t.Fatalf("event = %+v", e)
	}
	if cmd.Command != "/mom" || cmd.Text != "model local" || cmd.ChannelID != "C1" || cmd.ChannelName != "general" ||
		cmd.UserID != "U1" || cmd.UserName != "ann" || cmd.TeamID != "T0TEAM" || cmd.APIAppID != "A0MOM" ||
		cmd.TriggerID == "" || !strings.HasPrefix(cmd.ResponseURL, "http") || cmd.Token == "" || cmd.IsEnterpriseInstall {
		t.Errorf("slash command = %+v", cmd)
	}
	c.sm.Ack(*e.Request, map[string]any{"text": "only you see this"})

	if _, err := srv.SlashCommand("U1", "D1", "/mom", ""); err != nil {
		t.Fatal(err)
	}
	e = c.next(t, socketmode.EventTypeSlashCommand)
	if cmd := e.Data.(slack.SlashCommand); cmd.ChannelName != "directmessage" || cmd.Text != "" {
		t.Errorf("IM slash command = %+v", cmd)
	}
	c.sm.Ack(*e.Request, map[string]any{"response_type": "in_channel", "text": "everyone sees this"})
	srv.WaitFor(t, "both acks", func() bool { return len(srv.CommandResponses()) == 2 })

	r := srv.CommandResponses()
	if r[0].ResponseType != "ephemeral" || r[0].User != "U1" || r[0].Channel != "C1" || r[1].ResponseType != "in_channel" {
		t.Errorf("responses = %+v", r)
	}
	if eph := srv.Ephemerals(); len(eph) != 1 || eph[0].Text != "only you see this" || eph[0].User != "U1" {
		t.Errorf("ephemerals = %+v", eph)
	}
	msgs := srv.Messages("D1")
	if len(msgs) == 0 || msgs[len(msgs)-1].Text != "everyone sees this" {
		t.Errorf("the in_channel response is not in the IM: %+v", msgs)
	}
	noViolations(t, srv)
}
