// Package openai is mom's client for the OpenAI Chat Completions API and every server that
// imitates it (Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, …): it turns an llm.Request
// into a streaming chat completion, maps the chunks back to llm events and a pi-shaped
// assistant message (including the non-standard reasoning fields of compatible servers), and
// sorts failures into llm.Error kinds. It is configured only from Options.
//
// It speaks the protocol with the standard library rather than through OpenAI's Go SDK: the
// SDK registers every type of OpenAI's whole API when the program starts, which made mom's
// binary twice its size (42 MB against 22 MB) and cost 6 MB of memory at rest, for the one
// endpoint mom calls.
package openai

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/httpclient"
	"github.com/mom-agent/mom/internal/llm"
	"github.com/mom-agent/mom/internal/llm/sse"
)

// providerName is what llm.Error and assistant messages call this provider.
const providerName = "openai"

// defaultBaseURL is OpenAI's own API.
const defaultBaseURL = "https://api.openai.com/v1"

// Options configure a Provider. Nothing is read from the environment: OPENAI_API_KEY,
// OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_PROJECT_ID, OPENAI_CUSTOM_HEADERS and the rest are
// never consulted, so config.json is the only source of truth.
type Options struct {
	// APIKey is sent as a bearer token; when empty no Authorization header is sent, as local
	// servers expect.
	APIKey string
	// BaseURL replaces https://api.openai.com/v1; "/chat/completions" is appended, so a
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
	return &Provider{url: strings.TrimRight(base, "/") + "/chat/completions", key: o.APIKey, hc: hc, idle: o.IdleTimeout, log: log}
}

// Stream sends req and streams the answer, as llm.Provider describes. An answer stopped by the
// server's content filter is complete, not a failure: it comes back with StopReason error and
// a nil error, so the agent ends the run without retrying.
func (p *Provider) Stream(ctx context.Context, req *llm.Request, onEvent func(llm.StreamEvent)) (*llm.Message, error) {
	if onEvent == nil {
		onEvent = func(llm.StreamEvent) {}
	}
	gctx, guard := llm.NewStallGuard(ctx, p.idle)
	defer guard.Stop()

	acc := newAccumulator(req.Model, onEvent, p.log)
	err := p.stream(gctx, guard, buildParams(req), acc)
	return acc.End(ctx, guard, err, acc.finish != "", acc.final)
}

// stream posts params and feeds the answer to acc until the server says [DONE] or the stream
// ends. It returns the failure, classified.
func (p *Provider) stream(ctx context.Context, guard *llm.StallGuard, params chatRequest, acc *accumulator) error {
	header := http.Header{"Accept": {"text/event-stream"}}
	if p.key != "" {
		header.Set("Authorization", "Bearer "+p.key)
	}
	res, err := llm.PostJSON(ctx, p.hc, guard, providerName, p.url, header, params)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if ct, _, _ := mime.ParseMediaType(res.Header.Get("Content-Type")); ct == "application/json" {
		return wholeCompletion(res.Body, acc)
	}
	events := sse.NewReader(res.Body)
	for {
		ev, err := events.Next()
		if errors.Is(err, io.EOF) {
			return nil // the builder tells a complete answer from one cut short
		}
		if err != nil {
			return llm.ErrorFromTransport(providerName, err)
		}
		if bytes.HasPrefix(ev.Data, []byte("[DONE]")) {
			return nil
		}
		var ch chunk
		if err := json.Unmarshal(ev.Data, &ch); err != nil {
			return llm.Garbled(providerName, "a chat completion chunk", ev.Data, err)
		}
		if len(ch.Error) > 0 && string(ch.Error) != "null" {
			// An error event inside the stream is classified by its type, like an HTTP error body.
			e := llm.ErrorFromHTTP(providerName, 0, nil, ev.Data)
			e.Err = errors.New("the model server sent an error in the stream")
			return e
		}
		acc.handle(ch)
	}
}

// wholeCompletion reads the answer of a server that ignored "stream": true and sent the
// completion in one JSON body.
func wholeCompletion(r io.Reader, acc *accumulator) error {
	data, err := io.ReadAll(io.LimitReader(r, sse.MaxEvent))
	if err != nil {
		return llm.ErrorFromTransport(providerName, err)
	}
	var ch chunk
	if err := json.Unmarshal(data, &ch); err != nil {
		return llm.Garbled(providerName, "a chat completion chunk", data, err)
	}
	acc.handle(ch)
	return nil
}
