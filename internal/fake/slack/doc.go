// Package fakeslack is a loopback Slack for tests: the Web API (POST <base>method.name,
// form-encoded or JSON, {"ok":false,"error":"…"} answers with HTTP 200, 429 with Retry-After
// when rate limited) and Socket Mode (apps.connections.open hands out a ws:// URL; the socket
// sends hello, events_api envelopes that must be acked with {"envelope_id":"…"}, interactive
// envelopes for button taps, slash_commands envelopes whose ack may carry a response, disconnect
// with reason refresh_requested, and WebSocket pings). It speaks the protocols as Slack
// documents them, so slack-go and the real mom binary talk to it unchanged.
//
// Point a client at it:
//
//	slack.New(srv.BotToken(), slack.OptionAPIURL(srv.URL()), slack.OptionAppLevelToken(srv.AppToken()))
//
// Tests set up a workspace (AddUser, AddChannel, or NewAcme for the cast mom's tests share),
// play people (Say, Edit, Delete, JoinBot, RenameChannel, RenameUser, JoinTeam, CreateChannel,
// ArchiveChannel, UnarchiveChannel, Deliver, Click, SlashCommand for the commands
// WithSlashCommands declares) and look at what a person would see (Messages,
// Replies, Uploads, Ephemerals) or at what the client sent (Calls, CommandResponses,
// Violations). Events are delivered the
// way a Slack app subscribed to app_mention, message.channels, message.groups, message.im and
// message.mpim receives them, including the echoes of the bot's own posts, edits and
// deletions, and the channel_join message when the bot joins. Envelopes that are not acked in
// time are redelivered with a new envelope id and retry_attempt+1; events wait in a queue
// while no socket is open.
//
// A message an app posts for a person (Say with ThroughApp) carries both the person's user and
// the app's bot_id, as Slack sends it; conversations.members lists a conversation's members.
//
// Like a real workspace, users.list also lists the bot user and Slackbot (USLACKBOT, which has
// is_bot false). Faults: RateLimit, DropSocket, Refresh, Disconnect. Protocol mistakes by the
// client (wrong or missing tokens, missing required arguments, unknown methods, malformed
// bodies, bad acks, file downloads without the bot token, a call before the Retry-After of a
// 429 has passed) are answered as Slack answers them and also collected in Violations, which
// tests assert is empty. So is a client that edits one message more than MaxEditsPerSecond
// times a second, which Slack would soon rate-limit.
package fakeslack
