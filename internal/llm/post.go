package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
)

// PostJSON posts v, encoded as JSON, to url with header (Content-Type is set), watched by
// guard, and returns the response when the server accepted the request. A request that could
// not be encoded or sent, or an error answer, comes back as an *Error of provider, classified
// by ErrorFromTransport or by its status and body (ErrorFromHTTP).
func PostJSON(ctx context.Context, hc *http.Client, guard *StallGuard, provider, url string, header http.Header, v any) (*http.Response, error) {
	body, err := json.Marshal(v)
	if err != nil {
		return nil, &Error{Kind: ErrInvalid, Provider: provider, Err: err,
			Message: fmt.Sprintf("could not encode the request: %v", err)}
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Kind: ErrInvalid, Provider: provider, Err: err,
			Message: fmt.Sprintf("the model server's address %q is not a URL: %v", url, err)}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Content-Type", "application/json")
	res, err := guard.Middleware(req, hc.Do)
	if err != nil {
		return nil, ErrorFromTransport(provider, err)
	}
	if res.StatusCode >= 300 {
		defer res.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(res.Body, 1<<20))
		e := ErrorFromHTTP(provider, res.StatusCode, res.Header, data)
		e.Err = fmt.Errorf("POST %s: %s", url, res.Status)
		return nil, e
	}
	return res, nil
}

// Garbled is the error for a piece of an answer that is not the JSON the protocol promises
// (what names it: "a stream event"), quoting its start. It is transient: a proxy's hiccup or
// a server's bad moment, which a retry may not repeat.
func Garbled(provider, what string, data []byte, err error) *Error {
	const show = 200
	excerpt := string(data)
	if len(excerpt) > show {
		excerpt = excerpt[:show] + "…"
	}
	return &Error{Kind: ErrTransient, Provider: provider, Err: err,
		Message: fmt.Sprintf("the model server sent something that is not %s (%v): %q", what, err, excerpt)}
}
