package config

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// Transcription is the "transcription" section (the README's "Voice notes"): the server that
// turns audio people send into text, with OpenAI's POST /v1/audio/transcriptions (OpenAI,
// Groq, a local whisper.cpp or faster-whisper server). Config.Transcription is nil, and
// audio stays a file, when the section is absent.
type Transcription struct {
	// Provider names the API: "openai", the only one (any server that speaks it).
	Provider string
	// Model is the server's model id; "whisper-1" unless set.
	Model string
	// APIKey is sent as a bearer token; a local server may need none.
	APIKey string
	// BaseURL is where the API is, like "https://api.openai.com/v1" (the default).
	BaseURL string
	// MaxDuration is the longest audio transcribed ("maxMinutes", 10 unless set); a longer
	// one is left as a file, with a note to the model.
	MaxDuration time.Duration
	// PricePerMinute is what a minute of audio costs in US dollars: "pricePerMinute", else the
	// provider's list price for OpenAI's and Groq's own servers, else 0 (unknown, or free).
	PricePerMinute float64
	// priceFrom says where PricePerMinute came from, for Summary.
	priceFrom string
}

// The defaults of "transcription".
const (
	DefaultTranscriptionModel = "whisper-1"
	DefaultTranscriptionURL   = "https://api.openai.com/v1"
	defaultMaxMinutes         = 10
	// maxMaxMinutes is the most "maxMinutes" may be: OpenAI takes 25 MB, about that much
	// compressed speech, and a longer note is better summarized by its sender.
	maxMaxMinutes = 120
)

var transcriptionKeys = []string{"provider", "model", "apiKey", "baseUrl", "maxMinutes", "pricePerMinute"}

// transcriptionPrices are the list prices per minute, in US dollars, of the services whose
// own servers charge by the minute (hosts without the scheme), by model. A local server
// that takes "whisper-1" as a model name costs nothing, so only these hosts get a price.
var transcriptionPrices = map[string]map[string]float64{
	"api.openai.com": {"whisper-1": 0.006, "gpt-4o-transcribe": 0.006, "gpt-4o-mini-transcribe": 0.003},
	"api.groq.com":   {"whisper-large-v3": 0.111 / 60, "whisper-large-v3-turbo": 0.04 / 60, "distil-whisper-large-v3-en": 0.02 / 60},
}

func (d *decoder) transcription(o *object) *Transcription {
	t := &Transcription{Provider: ProviderOpenAI, Model: DefaultTranscriptionModel, BaseURL: DefaultTranscriptionURL,
		MaxDuration: defaultMaxMinutes * time.Minute}
	if s, ok := o.enum("provider", "transcription provider", []string{ProviderOpenAI}); ok {
		t.Provider = s
	}
	if s, ok := o.str("model"); ok && strings.TrimSpace(s) != "" {
		t.Model = strings.TrimSpace(s)
	}
	if s, ok := o.str("apiKey"); ok {
		t.APIKey = strings.TrimSpace(s)
	}
	if s, ok := o.str("baseUrl"); ok && s != "" {
		if checkURL(s) {
			t.BaseURL = strings.TrimSuffix(s, "/")
		} else {
			d.fail(joinPath(o.path, "baseUrl"), "%q is not an http(s) URL; write it like \"http://127.0.0.1:8000/v1\" (the part before /audio/transcriptions)", s)
		}
	}
	if n, ok := o.int("maxMinutes", 1); ok {
		if n > maxMaxMinutes {
			d.fail(joinPath(o.path, "maxMinutes"), "must be at most %d, got %d", maxMaxMinutes, n)
		}
		t.MaxDuration = time.Duration(n) * time.Minute
	}
	if p, ok := o.number("pricePerMinute"); ok {
		if p < 0 {
			d.fail(joinPath(o.path, "pricePerMinute"), "must be 0 or more (US dollars per minute of audio), got %v", p)
		}
		t.PricePerMinute, t.priceFrom = p, "pricePerMinute"
	} else if u, err := url.Parse(t.BaseURL); err == nil {
		if p, ok := transcriptionPrices[u.Hostname()][t.Model]; ok {
			t.PricePerMinute, t.priceFrom = p, "list price"
		}
	}
	o.finish(transcriptionKeys...)
	if t.APIKey == "" && strings.HasPrefix(t.BaseURL, DefaultTranscriptionURL) {
		d.fail(o.path, "OpenAI's API needs \"apiKey\", e.g. \"${OPENAI_API_KEY}\"; or set \"baseUrl\" to a server that takes none")
	}
	return t
}

// number decodes a number under key; ok is false when the key is absent, or its value is
// not a number (then reported).
func (o *object) number(key string) (float64, bool) {
	v := o.get(key)
	if v == nil {
		return 0, false
	}
	lit, ok := v.Value.(hujson.Literal)
	if !ok || lit.Kind() != '0' {
		o.d.fail(joinPath(o.path, key), "expected a number, got %s", kindName(v))
		return 0, false
	}
	f, err := strconv.ParseFloat(string(lit), 64)
	if err != nil {
		o.d.fail(joinPath(o.path, key), "expected a number, got %s", lit)
		return 0, false
	}
	return f, true
}

// transcriptionSummary is the line of Summary about voice notes, or "" when they are not
// transcribed.
func (c *Config) transcriptionSummary() string {
	t := c.Transcription
	if t == nil {
		return ""
	}
	cost := "cost unknown"
	if t.PricePerMinute > 0 {
		cost = fmt.Sprintf("$%.4g a minute (%s)", t.PricePerMinute, t.priceFrom)
	}
	return fmt.Sprintf("voice:    transcribed by %s at %s, up to %s each; %s\n", t.Model, RedactURL(t.BaseURL), t.MaxDuration, cost)
}
