package config

import (
	"fmt"
	"os"
	"time"
)

// Config is a loaded config.json.
type Config struct {
	// Model is the default model ("model"); Models are the named ones ("models"), which
	// adapters and channels may use instead (ModelFor).
	Model   Model
	Models  map[string]Model
	Sandbox Sandbox
	Retry   Retry
	// Compaction says when the context is summarized to fit the model's window.
	Compaction Compaction
	// CustomTools says how the model calls the host-side custom tools.
	CustomTools CustomTools
	// MaxConcurrentRuns is how many runs may go at once across all channels
	// ("maxConcurrentRuns"); DefaultMaxConcurrentRuns unless the file sets it.
	MaxConcurrentRuns int
	// Resume says what is done after a restart with the work it interrupted ("resume").
	Resume Resume
	// Health says where the health checks answer besides the web chat ("health").
	Health Health
	// Approvals say which tool calls need a person's yes ("approvals"); adapters and
	// channels may narrow them (ApprovalsFor).
	Approvals Approvals
	// Channels are per-channel settings ("channels"), by "<adapter>/<channel id>".
	Channels map[string]ChannelSettings
	// Metrics says who may read GET /metrics and how finely it counts ("metrics").
	Metrics Metrics
	// Transcription is the speech-to-text server for voice notes ("transcription"); nil
	// when audio stays a file.
	Transcription *Transcription
	// Limits cap what model calls cost in all channels together ("limits"); adapters and
	// channels add caps of their own (LimitsFor).
	Limits Limits
	// Adapters are the entries of the chat connections to start, sorted by name.
	Adapters []AdapterEntry
	// Path is the file the config came from (the name given to Parse), for messages.
	Path string

	// runsFromFile says MaxConcurrentRuns was set in the file, for Summary.
	runsFromFile bool
}

// Model says which model mom talks to and how.
type Model struct {
	// Provider is "anthropic" or "openai"; the latter covers every OpenAI-compatible server.
	// Empty until Resolve when neither the file nor a flag names one.
	Provider string
	// ID is the provider's model id, e.g. "claude-sonnet-4-5". Empty until Resolve when
	// neither the file nor a flag names one.
	ID string
	// APIKey is the key sent to the provider. After Resolve it holds the key from the file or
	// from ANTHROPIC_API_KEY / OPENAI_API_KEY.
	APIKey string
	// BaseURL points the provider's client at another server (a local model, a proxy, a fake
	// in tests). Empty means the provider's own API.
	BaseURL string
	// Thinking is how much extended reasoning to ask for.
	Thinking ThinkingLevel
	// MaxTokens caps one answer; zero means the model catalog's maximum.
	MaxTokens int
	// ContextWindow overrides the catalog's context window (for models it does not know);
	// zero means the catalog's value.
	ContextWindow int

	// keyFrom says where APIKey came from: keyFromFile, an environment variable's name, or ""
	// when there is no key. It lets Summary explain the key without printing it.
	keyFrom string
	// fileProvider is the provider the file named, so a --model flag for another provider
	// knows that the file's apiKey and baseUrl belong to someone else.
	fileProvider string
}

// ThinkingLevel is how much extended reasoning the model is asked for ("thinking"). Its
// values are the words of llm.ThinkingLevel, so the app hands it to the model by conversion.
type ThinkingLevel string

// The thinking levels.
const (
	ThinkingOff    ThinkingLevel = "off"
	ThinkingLow    ThinkingLevel = "low"
	ThinkingMedium ThinkingLevel = "medium"
	ThinkingHigh   ThinkingLevel = "high"
)

// keyFromFile marks an API key that was written in config.json (possibly via ${VAR}).
const keyFromFile = "apiKey in config"

// The providers a config may name.
const (
	ProviderAnthropic = "anthropic"
	ProviderOpenAI    = "openai"
)

// Default model ids per provider, used when the config and flags name none.
const (
	DefaultAnthropicModel = "claude-sonnet-4-5"
	DefaultOpenAIModel    = "gpt-4.1"
)

// Sandbox says where the agent's commands run.
type Sandbox struct {
	// Type is SandboxHost, SandboxDocker or SandboxBwrap; "" when neither the file nor a
	// flag chose one, until Choose picks bwrap or host.
	Type string
	// Container is the running Docker container commands are executed in (docker only).
	Container string
	// Isolation is IsolationChannel, IsolationUser or IsolationNone: what a command sees of
	// other channels' directories. "" until Choose, which applies the type's default
	// (channel for bwrap, none otherwise).
	Isolation string
	// Offline cuts commands off the network ("network": false; bwrap only).
	Offline bool
	// Env names variables of mom's environment that commands get besides the default
	// allowlist (PATH, HOME, LANG, LC_*, TZ, TERM, ...).
	Env []string
	// Chosen says why Choose picked Type when the config left it open, for mom check and the
	// start-up log; empty when the file or a flag named the type.
	Chosen string
	// Boundary says how the sandbox confines commands on this host, as mom found out when it
	// made the sandbox (bwrap: capabilities, user namespace); empty until then. For mom check
	// and the start-up log.
	Boundary string
	// Weakened says why the sandbox confines commands less on this host than it can
	// elsewhere; empty when it does not. mom check and the start-up log warn with it.
	Weakened string
}

// The sandbox types.
const (
	SandboxHost   = "host"
	SandboxDocker = "docker"
	SandboxBwrap  = "bwrap"
)

// The isolation levels.
const (
	IsolationChannel = "channel"
	IsolationUser    = "user"
	IsolationNone    = "none"
)

// Retry says how often and how patiently a failed model call is retried.
type Retry struct {
	// MaxRetries is how many times a failed call is tried again; zero turns retries off.
	MaxRetries int
	// BaseDelay is the wait before the first retry; each further retry doubles it.
	BaseDelay time.Duration
	// MaxDelay caps one wait.
	MaxDelay time.Duration
}

// Default retry settings, the same as pi's.
const (
	DefaultMaxRetries = 3
	DefaultBaseDelay  = 2 * time.Second
	DefaultMaxDelay   = 60 * time.Second
)

// Load reads and parses the config file at path, expanding ${VAR} from the process
// environment; its adapters may be of the given platforms. The model is not resolved yet:
// call Resolve after applying flags.
func Load(path string, platforms ...Platform) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s does not exist; run mom with the data directory once to create a template, or write it by hand", path)
		}
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(data, path, os.LookupEnv, platforms...)
}

// Parse decodes config data. name is used in error messages ("config.json:3:7: ...") and kept
// as Path. getenv looks up the variables that ${VAR} references; it is injected so tests do
// not depend on the process environment. An adapter's "type" must name one of platforms,
// whose Decode reads the adapter's own keys; the first of two platforms with one type wins.
// Every problem found is reported, joined into one error, each naming the key it concerns.
//
// Parse applies the defaults that depend on nothing else (sandbox host, retry 3 / 2 s / 60 s,
// thinking off, per-adapter dm and busy, concurrent runs by the machine's CPUs). The model's provider, id and key are left as the
// file gives them until Resolve.
func Parse(data []byte, name string, getenv func(string) (string, bool), platforms ...Platform) (*Config, error) {
	root, err := parseSyntax(data, name)
	if err != nil {
		return nil, err
	}
	d := &decoder{name: name, getenv: getenv, platforms: make(map[string]*Platform, len(platforms))}
	for i := range platforms {
		if _, dup := d.platforms[platforms[i].Type]; !dup {
			p := platforms[i]
			d.platforms[p.Type] = &p
		}
	}
	c := d.config(root)
	if err := d.err(); err != nil {
		return nil, err
	}
	c.Path = name
	return c, nil
}

// AdapterEntry returns the entry of the adapter with the given name.
func (c *Config) AdapterEntry(name string) (*AdapterEntry, bool) {
	for i := range c.Adapters {
		if c.Adapters[i].Name == name {
			return &c.Adapters[i], true
		}
	}
	return nil, false
}
