package config

import (
	"strings"
	"testing"
	"time"
)

func TestTranscriptionSection(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		in, summary string
		want        Transcription
	}{
		{`{"apiKey": "${KEY}"}`, "voice:    transcribed by whisper-1 at https://api.openai.com/v1, up to 10m0s each; $0.006 a minute (list price)",
			Transcription{Provider: "openai", Model: "whisper-1", APIKey: "sk-test", BaseURL: DefaultTranscriptionURL, MaxDuration: 10 * time.Minute, PricePerMinute: 0.006, priceFrom: "list price"}},
		{`{"model": "whisper-large-v3-turbo", "apiKey": "${KEY}", "baseUrl": "https://api.groq.com/openai/v1/", "maxMinutes": 3}`, "up to 3m0s each; $0.0006667 a minute (list price)",
			Transcription{Provider: "openai", Model: "whisper-large-v3-turbo", APIKey: "sk-test", BaseURL: "https://api.groq.com/openai/v1", MaxDuration: 3 * time.Minute, PricePerMinute: 0.04 / 60, priceFrom: "list price"}},
		// A local server: no key needed, and "whisper-1" there is free unless a price is set.
		{`{"baseUrl": "http://127.0.0.1:8000/v1"}`, "transcribed by whisper-1 at http://127.0.0.1:8000/v1, up to 10m0s each; cost unknown",
			Transcription{Provider: "openai", Model: "whisper-1", BaseURL: "http://127.0.0.1:8000/v1", MaxDuration: 10 * time.Minute}},
		{`{"baseUrl": "http://10.0.0.5:9000/v1", "pricePerMinute": 0.001}`, "$0.001 a minute (pricePerMinute)",
			Transcription{Provider: "openai", Model: "whisper-1", BaseURL: "http://10.0.0.5:9000/v1", MaxDuration: 10 * time.Minute, PricePerMinute: 0.001, priceFrom: "pricePerMinute"}},
	} {
		cfg, err := Parse([]byte(`{"transcription": `+c.in+`}`), "config.json", env(map[string]string{"KEY": "sk-test"}))
		if err != nil {
			t.Errorf("%s: %v", c.in, err)
			continue
		}
		if *cfg.Transcription != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.in, *cfg.Transcription, c.want)
		}
		if !strings.Contains(cfg.Summary(), c.summary) || strings.Contains(cfg.Summary(), "sk-test") {
			t.Errorf("%s: the summary should say %q and never show the key:\n%s", c.in, c.summary, cfg.Summary())
		}
	}
	cfg, err := Parse([]byte(`{}`), "config.json", env(nil))
	if err != nil || cfg.Transcription != nil || strings.Contains(cfg.Summary(), "voice:") {
		t.Errorf("without the section: %+v, %v", cfg.Transcription, err)
	}
}

func TestTranscriptionErrors(t *testing.T) {
	t.Parallel()
	checkErrors(t, []errCase{
		{"no key for OpenAI", `{"transcription": {}}`, `config.json: transcription: OpenAI's API needs "apiKey", e.g. "${OPENAI_API_KEY}"`},
		{"another provider", `{"transcription": {"provider": "google", "apiKey": "k"}}`, `config.json: transcription.provider: `},
		{"bad url", `{"transcription": {"baseUrl": "localhost:8000"}}`, `config.json: transcription.baseUrl: "localhost:8000" is not an http(s) URL`},
		{"too long", `{"transcription": {"apiKey": "k", "maxMinutes": 500}}`, `config.json: transcription.maxMinutes: must be at most 120, got 500`},
		{"zero minutes", `{"transcription": {"apiKey": "k", "maxMinutes": 0}}`, `config.json: transcription.maxMinutes: must be at least 1, got 0`},
		{"negative price", `{"transcription": {"apiKey": "k", "pricePerMinute": -1}}`, `config.json: transcription.pricePerMinute: must be 0 or more`},
		{"price as text", `{"transcription": {"apiKey": "k", "pricePerMinute": "cheap"}}`, `config.json: transcription.pricePerMinute: expected a number, got a string`},
		{"typo", `{"transcription": {"apiKey": "k", "modle": "x"}}`, `config.json: transcription: unknown key "modle"; did you mean "model"?`},
	})
}
