// Package fakediscord is a loopback Discord for tests. It speaks the protocols as Discord
// documents them, so disgo and the real mom binary talk to it unchanged:
//
//   - REST v10 under <URL>/v10 ("Authorization: Bot <token>", a "DiscordBot (…)" User-Agent):
//     GET /users/@me, /users/{id}, /gateway, /gateway/bot, /channels/{id}; Get Channel
//     Messages (around, before or after, limit 1–100, newest first, without the gateway-only
//     guild_id and member; 403 Missing Access where the bot cannot view the channel); message
//     create (JSON, or multipart with payload_json and files[n]), edit and delete; threads from
//     a message (403 Missing Permissions, code 50013, without Create Public Threads in the
//     channel, computed from owner, roles and overwrites); typing; Get Guild (owner_id, roles), Get Guild Channels (with their
//     permission_overwrites), Get Guild Roles and Get Guild Member (404 Unknown Member, code
//     10007, for someone outside the guild); Leave Guild (DELETE /users/@me/guilds/{id}: the
//     bot hears GUILD_DELETE, and the guild and its channels are closed to it from then on,
//     Left says so); message components (action rows of buttons, checked as Discord checks
//     them) on create and edit; the interaction callback (POST /interactions/{id}/{token}/
//     callback, authorized by the interaction's token, not the bot token: one response within
//     three seconds); the application's global commands (PUT and GET /applications/{id}/
//     commands: a bulk overwrite checked as Discord checks slash commands and their options).
//     Errors are {"message","code"} bodies with
//     Discord's HTTP statuses and JSON error codes; every answer carries X-RateLimit-*
//     headers, and a rate-limited route answers 429 with Retry-After, X-RateLimit-* and
//     {"retry_after": seconds}.
//   - The gateway over WebSocket (?v=10&encoding=json): HELLO (op 10) with heartbeat_interval;
//     IDENTIFY (op 2) checked for the token and the intents, answered by READY (session_id,
//     resume_gateway_url) and GUILD_CREATE (roles, channels with their permission
//     overwrites, threads, members with their roles); heartbeats (op 1 ↔ op 11); dispatches
//     (op 0 with s and t) filtered by intents, with message content withheld without the
//     MESSAGE_CONTENT intent as Discord does; INTERACTION_CREATE (no intent needed) for a
//     button press or a slash command; RESUME (op 6) replays what was dispatched after the client's sequence
//     number, then RESUMED; RECONNECT (op 7) and INVALID_SESSION
//     (op 9) on demand.
//   - The CDN: attachment URLs (<URL>/attachments/{channel}/{attachment}/{name}?ex=…&is=…&hm=…)
//     that serve the file without a token, as Discord's signed CDN links do.
//
// Messages are objects as Discord sends them: mentions (<@id>, and a reply's author unless the
// reply's ping was off), mention_roles (<@&id>), and for a reply type 19, message_reference
// and the replied-to message as referenced_message (null once deleted). The guild has the
// managed role Discord creates for an invited bot (BotRoleID: named like the bot, tags.bot_id,
// the invite's permissions), held by the bot.
//
// Tests set up a guild (AddUser, AddChannel, and who may see what: SetOwner, AddRole, SetRoles,
// SetOverwrites, a User that is NotMember), or start from the shared one of NewPreset, play
// people (Say with InReplyTo and NoPing, WithFile, or Silently for what was said while the bot
// was offline; Press on a button of the bot's message; Invoke one of the bot's slash
// commands) and faults (DropSocket, Reconnect,
// InvalidateSession, RateLimit, HideChannel), and look at what a person would see (Messages,
// Thread, Uploads, Typing, Buttons) or what the client sent (Calls, Interactions,
// GlobalCommands, Violations). Every protocol mistake (a wrong token, missing intents, malformed payloads, unknown opcodes, a request that ignores a 429's retry_after, a bot token sent to
// the CDN, an edit of someone else's message, a message over 2,000 characters, a history query
// Discord refuses, buttons Discord refuses, an interaction answered twice, late or with
// another's token, slash commands Discord refuses) is answered as Discord answers it and also recorded in Violations, which
// tests assert is empty.
package fakediscord
