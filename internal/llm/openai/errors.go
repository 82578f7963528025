package openai

import (
	"errors"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/mom-agent/mom/internal/llm"
)

// classify turns an SDK failure into an llm.Error. Error answers are read from the raw
// response rather than from the SDK's error type, because compatible servers shape their
// bodies differently (vLLM puts message and type at the top level, Ollama may send a bare
// string) and the SDK then fails to decode them and loses the status. An error event inside
// the stream is classified by its type, like an Anthropic one; anything else is a transport
// failure.
func classify(err error, res *http.Response) *llm.Error {
	if res != nil && res.StatusCode >= 400 {
		var body []byte
		if res.Body != nil {
			body, _ = io.ReadAll(io.LimitReader(res.Body, 1<<20))
		}
		e := llm.ErrorFromHTTP(providerName, res.StatusCode, res.Header, body)
		e.Err = err
		return e
	}
	var se *ssestream.StreamError
	if errors.As(err, &se) {
		e := llm.ErrorFromHTTP(providerName, 0, nil, se.Event.Data)
		e.Err = err
		return e
	}
	return llm.ErrorFromTransport(providerName, err)
}
