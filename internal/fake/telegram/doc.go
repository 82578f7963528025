// Package faketelegram is a loopback Telegram Bot API for tests. It speaks the API as
// https://core.telegram.org/bots/api documents it: methods at /bot<token>/<method> (names
// case-insensitive) with parameters in the query string, a form, a JSON body or a multipart
// body; answers {"ok":true,"result":…} or {"ok":false,"error_code":N,"description":"…"} with
// HTTP status N and, for 429, "parameters":{"retry_after":S}; files at
// /file/bot<token>/<file_path>. A malformed token is answered 404 Not Found, a wrong one 401
// Unauthorized, as Telegram does.
//
// getUpdates long-polls: updates are kept until a call with a higher offset confirms them, a
// timeout makes the call wait for the first new update, allowed_updates is remembered between
// calls, and a call that arrives while another is waiting ends the older one with 409
// "Conflict: terminated by other getUpdates request". A webhook (WithWebhook) makes getUpdates
// answer 409 until deleteWebhook.
//
// sendMessage and editMessageText parse parse_mode "HTML" the way Telegram's server does
// (its tags, attributes and entities; "can't parse entities: …" errors with byte offsets) and
// enforce the 4,096-character limit on the parsed text; editMessageText refuses an edit that
// changes nothing ("message is not modified"). Forum topics (message_thread_id),
// reply_parameters and reply_to_message_id, sendChatAction, deleteMessage, getFile and file
// downloads (20 MB limit), sendDocument / sendPhoto uploads, getChatMember (a ChatMember
// object per status; "user not found" for a user id it does not know) and leaveChat (after
// which the chat sends the bot nothing and calls naming it answer 403 "Forbidden: bot is not a
// member of the group chat") are implemented, and so is the command menu (setMyCommands,
// getMyCommands, deleteMyCommands per scope and language, checked as Telegram checks it;
// MyCommands shows it).
// sendPhoto enforces what the API documents (at most 10 MB, width + height at most 10,000, a
// ratio of at most 20) with Telegram's errors (PHOTO_SAVE_FILE_INVALID,
// PHOTO_INVALID_DIMENSIONS, IMAGE_PROCESS_FAILED); a photo is kept, as Telegram keeps it, as
// JPEG in several sizes, the largest last.
//
// NewTeam starts a server with a ready cast (two people, a bot, their private chats, a group
// and a forum). Tests set up chats (AddUser, AddChat, DeleteChat, CreateTopic, SetMember,
// SetRestricted; BotIn says whether the bot is still in a chat),
// play people (Say with InTopic, ReplyTo, WithDocument, WithPhoto, WithAudio, WithVideo,
// WithVoice; PNG makes a picture to send), and look at what people
// would see (Messages) or at what the client sent (Calls, Uploads, Actions, Violations).
// Faults: RateLimit, RejectMarkup, DropPoll, WithWebhook, StartRival (another program polling
// the same bot).
package faketelegram
