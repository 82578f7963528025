package anthropic

import (
	"errors"
	"net/http"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/mom-agent/mom/internal/llm"
)

// classify turns an SDK failure into an llm.Error. The SDK reports both error answers and
// SSE `error` events as *sdk.Error; an event arrives inside a 200 response, so it is
// classified by its error type (overloaded_error, api_error, … are transient) rather than
// by status. Anything else is a transport failure.
func classify(err error) *llm.Error {
	var apiErr *sdk.Error
	if !errors.As(err, &apiErr) {
		return llm.ErrorFromTransport(providerName, err)
	}
	status := apiErr.StatusCode
	var header http.Header
	if apiErr.Response != nil {
		header = apiErr.Response.Header
	}
	if status < 400 {
		status, header = 0, nil
	}
	e := llm.ErrorFromHTTP(providerName, status, header, []byte(apiErr.RawJSON()))
	e.Err = err
	return e
}
