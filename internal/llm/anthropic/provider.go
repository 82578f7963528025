// Package anthropic is mom's client for the Anthropic Messages API: it turns an llm.Request
// into a streaming Messages request (with prompt-caching breakpoints and extended thinking),
// maps the stream back to llm events and a pi-shaped assistant message, and sorts failures
// into llm.Error kinds. It is built on the official SDK, configured only from Options.
package anthropic

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/llm"
)

// providerName is what llm.Error and assistant messages call this provider.
const providerName = "anthropic"

// Options configure a Provider. Nothing is read from the environment: the SDK's defaults
// (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_BASE_URL, profiles, …) are switched off
// so that config.json is the only source of truth.
type Options struct {
	// APIKey is sent as x-api-key; when empty no key header is sent at all.
	APIKey string
	// BaseURL replaces https://api.anthropic.com/; the SDK appends "v1/messages".
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

// Provider streams answers from the Anthropic Messages API. It is safe for concurrent use.
type Provider struct {
	client sdk.Client
	idle   time.Duration
	log    *slog.Logger
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider. The SDK never retries (the agent loop owns retries, so it can tell
// people about them) and never reads the environment.
func New(o Options) *Provider {
	hc := o.HTTPClient
	if hc == nil {
		hc = httpclient.New(0)
	}
	opts := []option.RequestOption{
		option.WithoutEnvironmentDefaults(),
		option.WithoutOpenTelemetry(),
		option.WithHTTPClient(hc),
		option.WithMaxRetries(0),
	}
	if o.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(o.BaseURL))
	}
	if o.APIKey != "" {
		// x-api-key is the header the API documents for keys; the SDK's WithAPIKey would send
		// the key as a bearer token instead, which proxies and compatible servers may not take.
		opts = append(opts, option.WithHeader("x-api-key", o.APIKey))
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Provider{client: sdk.NewClient(opts...), idle: o.IdleTimeout, log: log}
}

// Stream sends req and streams the answer, as llm.Provider describes. A refusal is a complete
// answer, not a failure: it comes back with StopReason error, the refusal explained in
// ErrorMessage, and a nil error, so the agent ends the run without retrying.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	if onEvent == nil {
		onEvent = func(llm.StreamEvent) {}
	}
	params := buildParams(req)
	gctx, guard := llm.NewStallGuard(ctx, p.idle)
	defer guard.Stop()

	acc := newAccumulator(req.Model, onEvent, p.log)
	stream := p.client.Messages.NewStreaming(gctx, params, option.WithMiddleware(guard.Middleware))
	defer stream.Close()
	for stream.Next() {
		acc.handle(stream.Current())
	}
	var classified error
	if err := stream.Err(); err != nil {
		classified = classify(err)
	}
	return acc.End(ctx, guard, classified, acc.stopped, acc.final)
}
