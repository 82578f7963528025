package transcribe

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/textproto"
	"net/url"
	"strings"
)

// maxAnswer caps the answer read: a transcript of the longest audio mom sends is far less.
const maxAnswer = 4 << 20

// answer is the json response format: the text, and for services that bill by the second the
// audio's length ("usage"; "duration" in verbose_json, which some servers answer with).
type answer struct {
	Text  string `json:"text"`
	Usage *struct {
		Type    string  `json:"type"`
		Seconds float64 `json:"seconds"`
	} `json:"usage"`
	Duration float64 `json:"duration"`
}

// post uploads size bytes of r as name and returns the transcript and the length the
// service reports (0 when it reports none).
func (t *Transcriber) post(ctx context.Context, r io.Reader, size int64, name, contentType string) (string, float64, error) {
	var head bytes.Buffer
	mw := multipart.NewWriter(&head)
	_ = mw.WriteField("model", t.opts.Model)
	_ = mw.WriteField("response_format", "json")
	h := make(textproto.MIMEHeader)
	h.Set("Content-Disposition", fmt.Sprintf(`form-data; name="file"; filename=%q`, name))
	h.Set("Content-Type", contentType)
	if _, err := mw.CreatePart(h); err != nil {
		return "", 0, err
	}
	prefix := bytes.Clone(head.Bytes())
	head.Reset()
	_ = mw.Close()
	suffix := head.String() // the closing boundary
	body := io.MultiReader(bytes.NewReader(prefix), io.LimitReader(r, size), strings.NewReader(suffix))

	endpoint := t.opts.BaseURL + "/audio/transcriptions"
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, body)
	if err != nil {
		return "", 0, fmt.Errorf("the transcription URL %s: %w", endpoint, err)
	}
	req.ContentLength = int64(len(prefix)) + size + int64(len(suffix))
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if t.opts.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+t.opts.APIKey)
	}
	resp, err := t.opts.Client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err
		}
		return "", 0, fmt.Errorf("the transcription service at %s could not be reached: %w", host(endpoint), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxAnswer))
	if err != nil {
		return "", 0, fmt.Errorf("the transcription service at %s broke off its answer: %w", host(endpoint), err)
	}
	if resp.StatusCode != http.StatusOK {
		return "", 0, t.refusal(endpoint, resp.StatusCode, data)
	}
	var a answer
	if err := json.Unmarshal(data, &a); err != nil {
		return "", 0, fmt.Errorf("the transcription service at %s answered with something other than JSON: %.100q", host(endpoint), data)
	}
	seconds := a.Duration
	if a.Usage != nil && a.Usage.Type == "duration" && a.Usage.Seconds > 0 {
		seconds = a.Usage.Seconds
	}
	return a.Text, seconds, nil
}

// refusal words an error answer: the API's own message, and for a refused key the setting
// to fix.
func (t *Transcriber) refusal(endpoint string, status int, data []byte) error {
	var e struct {
		Error struct {
			Message string `json:"message"`
		} `json:"error"`
	}
	msg := strings.TrimSpace(string(data))
	if json.Unmarshal(data, &e) == nil && e.Error.Message != "" {
		msg = e.Error.Message
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	err := fmt.Errorf("the transcription service at %s answered %d: %s", host(endpoint), status, msg)
	switch status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w (check transcription.apiKey in config.json)", err)
	case http.StatusNotFound:
		return fmt.Errorf("%w (check transcription.baseUrl in config.json: it is the part before /audio/transcriptions)", err)
	}
	return err
}

// host is the scheme and host of a URL, for messages that should not repeat its path.
func host(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return "(unparsable URL)"
	}
	return u.Scheme + "://" + u.Host
}
