// Package approval decides which tool calls need a person's yes before they run (the
// "approvals" of config.json; the README's "Approvals"): every command, every custom tool
// call, and every write or edit outside the channel's own directory, unless the command is
// on the allow list or someone allowed it always in the channel. It knows nothing of
// platforms: the hub asks people and waits for the answer.
package approval
