// Package openai is mom's client for the OpenAI Chat Completions API and every server that
// imitates it (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, …): it turns an llm.Request
// into a streaming chat completion, maps the chunks back to llm events and a pi-shaped
// assistant message (including the non-standard reasoning fields of compatible servers), and
// sorts failures into llm.Error kinds. It is built on the official SDK, configured only from
// Options.
package openai

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/llm"
)

// providerName is what llm.Error and assistant messages call this provider.
const providerName = "openai"

// Options configure a Provider. Nothing is read from the environment: OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_CUSTOM_HEADERS and the rest are
// never consulted, so config.json is the only source of truth.
type Options struct {
	// APIKey is sent as a bearer token; when empty no Authorization header is sent, as local
	// servers expect.
	APIKey string
	// BaseURL replaces https://api.openai.com/v1; the SDK appends "chat/completions", so a
	// compatible server is named with its /v1 (http://localhost:11434/v1 for Ollama).
	BaseURL string
	// HTTPClient sends the requests; nil means httpclient.New(0).
	HTTPClient *http.Client
	// IdleTimeout abandons an answer that sends no bytes for this long; zero means
	// llm.DefaultIdleTimeout.
	IdleTimeout time.Duration
	// Logger receives warnings a person may need, such as tool arguments that did not parse;
	// nil means slog.Default().
	Logger *slog.Logger
}

// Provider streams answers from a Chat Completions endpoint. It is safe for concurrent use.
type Provider struct {
	chat sdk.ChatCompletionService
	idle time.Duration
	log  *slog.Logger
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider. The chat service is built directly instead of through
// openai.NewClient, because NewClient starts from the environment (OPENAI_BASE_URL,
// OPENAI_API_KEY, OPENAI_CUSTOM_HEADERS, …) and the SDK has no public switch to turn that off.
// The SDK never retries: the agent loop owns retries, so it can tell people about them.
func New(o Options) *Provider {
	hc := o.HTTPClient
	if hc == nil {
		hc = httpclient.New(0)
	}
	opts := []option.RequestOption{
		option.WithEnvironmentProduction(),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.APIKey != "" {
		opts = append(opts, option.WithAPIKey(o.APIKey))
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Provider{chat: sdk.NewChatCompletionService(opts...), idle: o.IdleTimeout, log: log}
}

// Stream sends req and streams the answer, as llm.Provider describes. An answer stopped by the
// server's content filter is complete, not a failure: it comes back with StopReason error and
// a nil error, so the agent ends the run without retrying.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	if onEvent == nil {
		onEvent = func(llm.StreamEvent) {}
	}
	params := buildParams(req)
	gctx, guard := llm.NewStallGuard(ctx, p.idle)
	defer guard.Stop()

	acc := newAccumulator(req.Model, onEvent, p.log)
	var res *http.Response
	stream := p.chat.NewStreaming(gctx, params, option.WithMiddleware(guard.Middleware), option.WithResponseInto(&res))
	defer stream.Close()
	for stream.Next() {
		acc.handle(stream.Current())
	}
	var classified error
	if err := stream.Err(); err != nil {
		classified = classify(err, res)
	}
	return acc.End(ctx, guard, classified, acc.finish != "", acc.final)
}
