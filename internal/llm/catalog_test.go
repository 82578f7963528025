package llm_test

import (
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

func TestLookupKnownModels(t *testing.T) {
	for _, tc := range []struct {
		provider, id, base string
	}{
		{"anthropic", "claude-sonnet-4-5", "claude-sonnet-4-5"},
		{"anthropic", "claude-sonnet-4-5-20250929", "claude-sonnet-4-5"},
		{"anthropic", "claude-opus-4-0", "claude-opus-4"},
		{"anthropic", "claude-opus-4-20250514", "claude-opus-4"},
		{"Anthropic", "claude-haiku-4-5-20251001", "claude-haiku-4-5"},
		{"openai", "gpt-4o-2024-08-06", "gpt-4o"},
		{"openai", "gpt-4.1", "gpt-4.1"},
		{"openai", "o3-2025-04-16", "o3"},
	} {
		m := llm.Lookup(tc.provider, tc.id)
		base := llm.Lookup(tc.provider, tc.base)
		if !m.Known || m.ID != tc.id || m.Price != base.Price || m.ContextWindow != base.ContextWindow || m.Price.Input == 0 {
			t.Errorf("Lookup(%s, %s) = %+v", tc.provider, tc.id, m)
		}
	}
	s := llm.Lookup("anthropic", "claude-sonnet-4-5")
	if s.Provider != "anthropic" || s.API != "anthropic-messages" || s.ContextWindow != 200000 || s.MaxOutput != 64000 ||
		!s.Reasoning || !s.Images || s.Price != (llm.Price{Input: 3, Output: 15, CacheRead: 0.3, CacheWrite: 3.75}) {
		t.Errorf("claude-sonnet-4-5 = %+v", s)
	}
	if g := llm.Lookup("openai", "gpt-4o"); g.API != "openai-completions" || g.Reasoning || g.Price.CacheRead != 1.25 {
		t.Errorf("gpt-4o = %+v", g)
	}
}

func TestLookupUnknownModels(t *testing.T) {
	a := llm.Lookup("anthropic", "claude-future-9")
	if a.Known || a.ID != "claude-future-9" || a.API != "anthropic-messages" || a.ContextWindow != 200000 || a.MaxOutput != 8192 ||
		a.Reasoning || !a.Images || a.Price != (llm.Price{}) {
		t.Errorf("unknown anthropic = %+v", a)
	}
	o := llm.Lookup("openai", "qwen3:8b")
	if o.Known || o.API != "openai-completions" || o.ContextWindow != 128000 || o.MaxOutput != 16384 || o.Price != (llm.Price{}) {
		t.Errorf("unknown openai = %+v", o)
	}
	if m := llm.Lookup("openai", "claude-sonnet-4-5"); m.Known {
		t.Errorf("a model is only known under its own provider: %+v", m)
	}
	if m := llm.Lookup("openai", "gpt-4o-2024"); m.Known {
		t.Errorf("a partial date is not a date: %+v", m)
	}
}

func TestCatalogIsSane(t *testing.T) {
	for _, p := range []string{"anthropic", "openai"} {
		for _, id := range []string{"claude-opus-4-8", "claude-opus-4-7", "claude-opus-4-6", "claude-sonnet-4-6", "claude-opus-4-5", "claude-haiku-4-5", "claude-opus-4-1", "claude-sonnet-4",
			"gpt-5", "gpt-5-mini", "gpt-5-nano", "gpt-4.1-mini", "gpt-4.1-nano", "gpt-4o-mini", "o4-mini", "o3-mini"} {
			m := llm.Lookup(p, id)
			if !m.Known {
				continue
			}
			if m.ContextWindow < 100000 || m.MaxOutput < 8192 || m.Price.Input <= 0 || m.Price.Output <= m.Price.Input || m.Price.CacheRead >= m.Price.Input {
				t.Errorf("%s/%s looks wrong: %+v", p, id, m)
			}
		}
	}
}
