package oldprompt

import (
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/skills"
)

// Params is everything the prompt describes. Paths are as the sandbox sees them (for docker,
// under /workspace), because the model uses them in commands.
type Params struct {
	// Workspace is the workspace directory.
	Workspace string
	// ChannelDir is this channel's directory, normally <Workspace>/channels/<adapter>/<id>.
	ChannelDir string

	// Adapter is the adapter's name from config.json ("team").
	Adapter string
	// Platform is what mom lives in, as people know it: "a terminal". Empty says
	// "a chat platform".
	Platform string
	// ChannelID and ChannelName identify the conversation this run is in.
	ChannelID, ChannelName string
	// IsDM says the conversation is a direct message with one person.
	IsDM bool

	// SandboxKind is "host", "docker" or "bwrap"; anything else is described as host, the
	// most cautious wording.
	SandboxKind string
	// SandboxNote is extra text for the Environment section (e.g. the container's distro).
	SandboxNote string
	// Isolation is what bwrap shows commands of other channels: "channel", "user", or ""
	// and "none" for everything.
	Isolation string
	// Offline says commands have no network.
	Offline bool

	// Users and Channels are what the adapter knows. The prompt lists at most MaxListed of
	// each, sorted; passing them sorted saves Build the work.
	Users    []chat.User
	Channels []chat.Channel

	// GlobalMemory and ChannelMemory are the contents of the two MEMORY.md files.
	GlobalMemory, ChannelMemory string

	// Skills are the available skills, with Path already translated to the sandbox's view.
	Skills []skills.Skill

	// Timezone is the host's IANA zone name ("Europe/Vienna").
	Timezone string
	// Now is the current time in the host's zone. Only its UTC offset is used, so the prompt
	// changes at most when daylight saving time does, not every run.
	Now time.Time

	// Tools names the tools the model has, in order; nil means the built-in five (bash, read,
	// write, edit, attach).
	Tools []string

	// CustomTools are the host-side custom tools, listed with their descriptions and a
	// summary of their arguments. CustomToolsDirect says the model calls them as tools of
	// their own; otherwise it calls them through invoke_tool.
	CustomTools       []llm.Tool
	CustomToolsDirect bool
}

// MaxListed caps the people and channels listed, so a large workspace cannot fill the
// context window; the rest are counted.
const MaxListed = 200

// MaxMemory caps each memory file's bytes in the prompt. A longer file is cut with a note to
// read the rest, which also tells the model it is time to tidy the file.
const MaxMemory = 16 << 10
