package llm

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
)

// The wire protocols in pi's terms, as Model.API and Message.API name them.
const (
	APIAnthropic = "anthropic-messages"
	APIOpenAI    = "openai-completions"
)

// catalogJSON holds what mom knows about the models of each provider.
//
// Source: charm.land/catwalk v0.52.8 (2026-08-24), internal/providers/configs/{anthropic,openai}.json,
// read 2026-11-21. Catwalk's cost_per_1m_in_cached is the cache WRITE price and its
// cost_per_1m_out_cached the cache READ price; they are mapped to cacheWrite and cacheRead here.
// Catwalk's default_max_tokens is a default, not the limit, so maxOutput is the documented
// limit where it is larger (gpt-4.1 family 32768, gpt-4o family 16384, o3/o4-mini/o3-mini
// 100000). Models that only the Responses API serves (codex, pro) are left out: mom speaks
// Chat Completions. Claude 3.x is left out because Anthropic no longer serves it.
//
//go:embed catalog.json
var catalogJSON []byte

// catalog parses catalogJSON on first use. It is read-only afterwards, so sharing it is safe.
var catalog = sync.OnceValue(func() map[string]Model {
	var raw map[string][]struct {
		Model
		Aliases []string `json:"aliases"`
	}
	if err := json.Unmarshal(catalogJSON, &raw); err != nil {
		// The file is embedded at build time, so this is a programming error caught by tests.
		panic(fmt.Sprintf("llm: the embedded model catalog does not parse: %v", err))
	}
	out := make(map[string]Model)
	for provider, models := range raw {
		for _, e := range models {
			m := e.Model
			m.Provider, m.API, m.Known = provider, apiOf(provider), true
			for _, id := range append([]string{m.ID}, e.Aliases...) {
				out[catalogKey(provider, id)] = m
			}
		}
	}
	return out
})

// Lookup returns what the catalog knows about a provider's model. The id is matched exactly,
// then without a trailing date or "-latest" ("claude-sonnet-4-5-20250929" finds
// "claude-sonnet-4-5", "gpt-4o-2024-08-06" finds "gpt-4o"). The returned ID is always the id
// asked for, because that is what the provider must be sent.
//
// A model the catalog does not know gets Known false, a zero price (its cost cannot be
// computed), Reasoning false, Images true, and limits that fit most servers of its kind:
// anthropic 200000-token context and 8192-token answers (every Claude model accepts that);
// other providers a 128000-token context and 16384-token answers (typical of current
// OpenAI-compatible models; local servers with a smaller context report overflow, which the
// agent handles by compacting).
func Lookup(provider, id string) Model {
	provider = strings.ToLower(strings.TrimSpace(provider))
	cat := catalog()
	if m, ok := cat[catalogKey(provider, id)]; ok {
		m.ID = id
		return m
	}
	if base := withoutDate(id); base != id {
		if m, ok := cat[catalogKey(provider, base)]; ok {
			m.ID = id
			return m
		}
	}
	m := Model{Provider: provider, ID: id, API: apiOf(provider), Images: true}
	if provider == "anthropic" {
		m.ContextWindow, m.MaxOutput = 200000, 8192
	} else {
		m.ContextWindow, m.MaxOutput = 128000, 16384
	}
	return m
}

func catalogKey(provider, id string) string { return provider + "/" + id }

// apiOf names the protocol a provider speaks; every provider but Anthropic is reached through
// the OpenAI-compatible Chat Completions API.
func apiOf(provider string) string {
	if provider == "anthropic" {
		return APIAnthropic
	}
	return APIOpenAI
}

// withoutDate strips a trailing "-YYYYMMDD", "-YYYY-MM-DD" or "-latest" from a model id.
func withoutDate(id string) string {
	if s, ok := strings.CutSuffix(id, "-latest"); ok {
		return s
	}
	if i := strings.LastIndexByte(id, '-'); i > 0 && len(id)-i-1 == 8 && allDigits(id[i+1:]) {
		return id[:i]
	}
	if n := len(id); n > 11 && id[n-11] == '-' && id[n-3] == '-' && id[n-6] == '-' &&
		allDigits(id[n-10:n-6]) && allDigits(id[n-5:n-3]) && allDigits(id[n-2:]) {
		return id[:n-11]
	}
	return id
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
