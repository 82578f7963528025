package chat

import "context"

// Adapter connects mom to one platform account (the spec's PlatformAdapter): it turns
// platform events into Messages for the Inbox, knows who and what is there, and offers a raw
// Surface to write on in its Dialect. The hub drives it (Register, Receive, runs and notices),
// cmd/mom starts and stops it, and the health checks name it. Every method must be safe to
// call from several goroutines.
//
// What only some platforms can do is not part of it. The code that needs an ability looks
// for it by type assertion, the way net/http finds a Flusher, and an adapter without it still
// works: hub.Replier (drawing runs its own way: the terminal, the web chat), hub.BotUser (the
// bot's own account), hub.Groups and hub.Leaver (groups people add the bot to), agent.Membership
// (user isolation in the sandbox), health.Connector (whether the connection is up) and, on the
// Surface, render.Typist (the typing indicator).
type Adapter interface {
	// Name is the adapter's key in config.json ("team"); it names the channel
	// directories (channels/<name>/<channelId>/).
	Name() string
	// Start connects to the platform and returns once connected, or with the reason it could
	// not. From then on, messages go to in until ctx ends or Stop is called.
	Start(ctx context.Context, in Inbox) error
	// Stop disconnects and waits for the adapter's goroutines to finish.
	Stop(ctx context.Context) error
	// Directory returns the people and conversations the adapter knows, as it knows them now.
	// The hub asks once per run, for the system prompt.
	Directory() Directory
	// Surface returns where mom writes on the platform: raw messages in its markup, and files.
	Surface() Surface
	// Dialect says how to write there: the markup, the limits, the pace of edits, threads.
	Dialect() Dialect
}

// Directory is what an adapter knows of its platform's people and conversations at one
// moment (the spec's channels and users of a context), each list in a stable order.
type Directory struct {
	// Users are the people (and bots) the adapter knows.
	Users []User
	// Channels are the conversations the bot is part of.
	Channels []Channel
}

// Inbox receives what adapters hear. The hub implements it.
type Inbox interface {
	// Receive logs m to the history of channel m.ChannelID of the named adapter and acts on it
	// (access control, triggers, stop). It returns once m is written to log.jsonl, so an
	// adapter acknowledges the platform's event only after it returns nil; an error means the
	// message could not be stored and the platform should deliver it again.
	Receive(ctx context.Context, adapter string, m Message) error
	// Answer takes a person's tap on a button of a Question mom asked (Asker) and returns
	// what to tell that person: "" when the answer was taken, else why not ("Only an admin
	// can decide this.", "This request is no longer open."), for the platform's
	// acknowledgement or a short message only they see.
	Answer(ctx context.Context, adapter string, a Answer) string
}
