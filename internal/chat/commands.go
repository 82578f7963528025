package chat

// Command is one of mom's chat commands, which work the same on every platform as a message
// to mom ("@mom /cost", "/cost" in a DM or the terminal). Platforms with native commands
// (Telegram's command menu, Discord's application commands, Slack's slash commands) register
// them too.
type Command struct {
	// Name is the command without its slash; Args says what may follow it, "" for nothing.
	Name, Args string
	// Summary says what it does, in a few words (Telegram takes at most 256 characters).
	Summary string
}

// Commands returns mom's chat commands, in the order /help lists them.
func Commands() []Command {
	return []Command{
		{Name: "help", Summary: "list these commands"},
		{Name: "stop", Summary: "stop the run in progress"},
		{Name: "new", Summary: "start a fresh context for this channel (the history stays)"},
		{Name: "compact", Args: "[focus]", Summary: "summarize the context now, keeping what focus names"},
		{Name: "model", Args: "[name]", Summary: "show this channel's model, or (admins) switch it"},
		{Name: "cost", Summary: "spend today and this month, and the limits"},
		{Name: "status", Summary: "model, context use, sandbox, queue and the last run"},
	}
}

// Usage is the command as typed, with what may follow it: "/compact [focus]".
func (c Command) Usage() string {
	if c.Args == "" {
		return "/" + c.Name
	}
	return "/" + c.Name + " " + c.Args
}
