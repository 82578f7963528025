package llm

// Model is one model of one provider, with what the catalog knows about it.
type Model struct {
	// Provider is "anthropic" or "openai" (the latter also for any OpenAI-compatible server).
	Provider string `json:"provider"`
	// ID is the provider's model id, e.g. "claude-sonnet-4-5".
	ID string `json:"id"`
	// API names the wire protocol in pi's terms: "anthropic-messages" or "openai-completions".
	API string `json:"api"`
	// ContextWindow is the most tokens a request and its answer may hold together.
	ContextWindow int `json:"contextWindow"`
	// MaxOutput is the most tokens one answer may hold.
	MaxOutput int `json:"maxOutput"`
	// Reasoning says whether the model accepts a thinking level.
	Reasoning bool `json:"reasoning"`
	// Images says whether the model accepts image input.
	Images bool `json:"images"`
	// Price is per million tokens; zero for models the catalog does not know.
	Price Price `json:"price"`
	// Known is false when the model is not in the catalog and the fields above are defaults.
	Known bool `json:"-"`
}
