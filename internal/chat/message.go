// Package chat holds the platform-neutral types every adapter and the hub share: messages as
// they are logged to log.jsonl, users, channels, attachments, and the Adapter interface a
// platform implements (the spec's PlatformAdapter and ChannelMessage).
package chat

import (
	"encoding/json"
	"time"
)

// Message is one message in a channel, exactly as it is stored as a line of log.jsonl (the
// spec's ChannelMessage). Adapters fill it from the platform's event; the bot's own replies are
// logged in the same shape with Sender.IsBot set.
type Message struct {
	// ID is unique within the channel; the platform's own id where it has one.
	ID string `json:"id"`
	// ChannelID is the platform's channel id, without the adapter name.
	ChannelID string `json:"channelId,omitempty"`
	// TS is when the message was sent, per the platform.
	TS     time.Time `json:"ts"`
	Sender User      `json:"sender"`
	// Text is the message with the bot's own mention removed and platform mention markup of
	// other people turned into @username, ready for the model.
	Text string `json:"text"`
	// RawText is the text as the platform delivered it, when it differs from Text.
	RawText     string       `json:"rawText,omitempty"`
	Attachments []Attachment `json:"attachments"`
	// IsMention says the message addresses the bot: a mention in a channel, or any DM.
	IsMention bool `json:"isMention"`
	// IsDM says the message came in a direct conversation with the bot.
	IsDM bool `json:"isDM,omitempty"`
	// IsGroupDM says the message came in a direct conversation of several people with the
	// bot (a group DM). mom answers there only when addressed, as in a channel, but who
	// may start a run follows the DM policy: anyone can open such a conversation.
	IsGroupDM bool `json:"isGroupDM,omitempty"`
	// ReplyTo is the id of the message this one answers or the thread it belongs to.
	ReplyTo string `json:"replyTo,omitempty"`
	// Metadata holds platform-specific details that other code may use but need not know.
	Metadata map[string]any `json:"metadata,omitempty"`
}

// MarshalJSON writes the message as the log format wants it: "attachments" always present, and
// "ts" in UTC, so that comparing two timestamps as strings (jq, grep) compares the times.
func (m Message) MarshalJSON() ([]byte, error) {
	type plain Message
	p := plain(m)
	p.TS = p.TS.UTC()
	if p.Attachments == nil {
		p.Attachments = []Attachment{}
	}
	return json.Marshal(p)
}

// User is a person or bot on a platform.
type User struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	DisplayName string `json:"displayName,omitempty"`
	IsBot       bool   `json:"isBot"`
}

// Attachment is a file that came with a message and was saved into the channel's attachments/.
type Attachment struct {
	// Filename is the name the sender gave the file.
	Filename string `json:"filename"`
	// LocalPath is where the file is stored, relative to the channel's directory
	// (attachments/<ms>_<name>). Empty when the download failed.
	LocalPath string `json:"localPath"`
	MimeType  string `json:"mimeType,omitempty"`
	Size      int64  `json:"size,omitempty"`
	// Error says why the file could not be saved, for the model and the people reading logs.
	Error string `json:"error,omitempty"`
	// Transcript is what was said in an audio file (a voice note), when config.json has
	// "transcription"; it is made before the message is logged, so later runs and jq see it.
	Transcript *Transcript `json:"transcript,omitempty"`
}

// Transcript is the text of an audio attachment, or why there is none.
type Transcript struct {
	// Text is what was said; empty when Error is set, or when nothing was said.
	Text string `json:"text,omitempty"`
	// Seconds is the audio's length, when known.
	Seconds float64 `json:"seconds,omitempty"`
	// Error says why there is no text: the file is longer than mom transcribes, or the
	// transcription service failed, and how.
	Error string `json:"error,omitempty"`
	// Model is the model that transcribed it; Cost is what that cost in US dollars, when the
	// price is known.
	Model string  `json:"model,omitempty"`
	Cost  float64 `json:"cost,omitempty"`
}

// ChannelKind says what sort of conversation a channel is.
type ChannelKind string

// The kinds of channel.
const (
	KindChannel ChannelKind = "channel"
	KindDM      ChannelKind = "dm"
	KindGroup   ChannelKind = "group"
)

// Channel is a conversation the bot is part of.
type Channel struct {
	ID   string      `json:"id"`
	Name string      `json:"name"`
	Kind ChannelKind `json:"kind"`
}

// WakeUpKey is the Metadata key that marks a run's trigger as a wake-up: a scheduled or
// external event file of the events directory, not a platform's or a run's event. Its value
// is the file's name.
const WakeUpKey = "event"

// WakeUpFile returns the name of the wake-up file (in the events directory) that triggered m,
// or "" when a person did.
func (m Message) WakeUpFile() string {
	s, _ := m.Metadata[WakeUpKey].(string)
	return s
}
