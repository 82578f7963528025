// Package anthropic is mom's client for the Anthropic Messages API: it turns an llm.Request
// into a streaming Messages request (with prompt-caching breakpoints and extended thinking),
// maps the stream back to llm events and a pi-shaped assistant message, and sorts failures
// into llm.Error kinds. It is configured only from Options, never from the environment.
//
// It speaks the protocol with the standard library rather than through Anthropic's Go SDK,
// which made up a quarter of mom's binary and kept a one-shot turn above 20 MiB (22.3 against
// 18.5 without it) for the one endpoint mom calls.
package anthropic

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/sse"
)

// providerName is what llm.Error and assistant messages call this provider.
const providerName = "anthropic"

// defaultBaseURL is Anthropic's own API.
const defaultBaseURL = "https://api.anthropic.com/"

// apiVersion is the anthropic-version header: the version of the Messages API mom speaks.
const apiVersion = "2023-06-01"

// Options configure a Provider. Nothing is read from the environment (ANTHROPIC_API_KEY,
// ANTHROPIC_BASE_URL and the like are never consulted), so config.json is the only source
// of truth.
type Options struct {
	// APIKey is sent as x-api-key; when empty no key header is sent at all.
	APIKey string
	// BaseURL replaces https://api.anthropic.com/; "v1/messages" is appended.
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
	url  string
	key  string
	hc   *http.Client
	idle time.Duration
	log  *slog.Logger
}

var _ llm.Provider = (*Provider)(nil)

// New returns a Provider. It never retries: the agent loop owns retries, so it can tell
// people about them.
func New(o Options) *Provider {
	hc := o.HTTPClient
	if hc == nil {
		hc = httpclient.New(0)
	}
	base := o.BaseURL
	if base == "" {
		base = defaultBaseURL
	}
	log := o.Logger
	if log == nil {
		log = slog.Default()
	}
	return &Provider{url: strings.TrimRight(base, "/") + "/v1/messages", key: o.APIKey, hc: hc, idle: o.IdleTimeout, log: log}
}

// Stream sends req and streams the answer, as llm.Provider describes. A refusal is a complete
// answer, not a failure: it comes back with StopReason error, the refusal explained in
// ErrorMessage, and a nil error, so the agent ends the run without retrying.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	if onEvent == nil {
		onEvent = func(llm.StreamEvent) {}
	}
	gctx, guard := llm.NewStallGuard(ctx, p.idle)
	defer guard.Stop()

	acc := newAccumulator(req.Model, onEvent, p.log)
	err := p.stream(gctx, guard, buildParams(req), acc)
	return acc.End(ctx, guard, err, acc.stopped, acc.final)
}

// stream posts params and feeds the events of the answer to acc until message_stop or the end
// of the stream. It returns the failure, classified: an error answer by its status and body,
// an error event inside the stream by its type (overloaded_error, api_error, … are
// transient), anything else as a transport failure.
func (p *Provider) stream(ctx context.Context, guard *llm.StallGuard, params messagesRequest, acc *accumulator) error {
	header := http.Header{"Accept": {"text/event-stream"}, "Anthropic-Version": {apiVersion}}
	if p.key != "" {
		header.Set("X-Api-Key", p.key)
	}
	res, err := llm.PostJSON(ctx, p.hc, guard, providerName, p.url, header, params)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	events := sse.NewReader(res.Body)
	for !acc.stopped {
		ev, err := events.Next()
		if errors.Is(err, io.EOF) {
			return nil // the builder tells a complete answer from one cut short
		}
		if err != nil {
			return llm.ErrorFromTransport(providerName, err)
		}
		var se streamEvent
		if err := json.Unmarshal(ev.Data, &se); err != nil {
			return llm.Garbled(providerName, "a stream event", ev.Data, err)
		}
		if se.Type == "error" || ev.Type == "error" {
			e := llm.ErrorFromHTTP(providerName, 0, nil, ev.Data)
			e.Err = errors.New("the model server sent an error in the stream")
			return e
		}
		acc.handle(se)
	}
	return nil
}
