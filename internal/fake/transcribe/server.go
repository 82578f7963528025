package faketranscribe

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/http/httptest"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// MaxUpload is the API's limit on a request's size: 25 MB.
const MaxUpload = 25 << 20

// Formats are the file extensions the API takes, in the order its error lists them.
var Formats = []string{"flac", "m4a", "mp3", "mp4", "mpeg", "mpga", "oga", "ogg", "wav", "webm"}

// DefaultWait is how long WaitFor waits for a change of the server's state.
const DefaultWait = 20 * time.Second

// Reply is what the server answers one upload with: its transcript and length, or an error.
type Reply struct {
	Text string
	// Seconds is the audio's length, reported in "usage" (and as "duration" in
	// verbose_json); zero leaves it out, as servers that do not bill by the second do.
	Seconds float64
	// Status, when not zero, makes the answer an error with this HTTP status, Type and
	// Message, in the API's error shape.
	Status        int
	Type, Message string
}

// Text is an upload's transcript, of an audio of seconds.
func Text(text string, seconds float64) Reply { return Reply{Text: text, Seconds: seconds} }

// Fail is an error answer, as the API gives it: 429 rate_limit_exceeded, 500 server_error.
func Fail(status int, typ, message string) Reply {
	return Reply{Status: status, Type: typ, Message: message}
}

// Request is one upload as the server received it.
type Request struct {
	Header         http.Header
	Model          string
	FileName       string // the file part's filename
	ContentType    string // the file part's Content-Type
	Data           []byte // the file
	ResponseFormat string // "" when not sent
	Language       string
}

// Server is a loopback transcription server.
type Server struct {
	*fakeserver.Recorder
	ts     *httptest.Server
	apiKey string

	mu    sync.Mutex
	queue []Reply
	def   *Reply
	reqs  []*Request
}

// Option configures a Server.
type Option func(*Server)

// WithAPIKey makes the server want "Authorization: Bearer <key>", as OpenAI and Groq do.
// Without it any key, or none, is taken, as a local server does.
func WithAPIKey(key string) Option { return func(s *Server) { s.apiKey = key } }

// New starts a server; Close it when done.
func New(opts ...Option) *Server {
	s := &Server{Recorder: fakeserver.NewRecorder("faketranscribe", DefaultWait)}
	for _, o := range opts {
		o(s)
	}
	s.ts = httptest.NewServer(http.HandlerFunc(s.serveHTTP))
	return s
}

// URL is the base URL clients are configured with, like https://api.openai.com/v1.
func (s *Server) URL() string { return s.ts.URL + "/v1" }

// Close stops the server.
func (s *Server) Close() { s.ts.Close() }

// Enqueue adds replies for the next valid uploads, first in first out.
func (s *Server) Enqueue(replies ...Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.queue = append(s.queue, replies...)
}

// Default sets the reply for valid uploads the queue does not answer. Without one, such an
// upload gets a 500 that says no reply was scripted.
func (s *Server) Default(r Reply) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = &r
}

// Requests returns the valid uploads received so far, in order.
func (s *Server) Requests() []*Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Request(nil), s.reqs...)
}

// apiError writes the API's error shape.
func apiError(w http.ResponseWriter, status int, typ, message, param, code string) {
	body := map[string]any{"message": message, "type": typ, "param": nil, "code": nil}
	if param != "" {
		body["param"] = param
	}
	if code != "" {
		body["code"] = code
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": body})
}

func (s *Server) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost || r.URL.Path != "/v1/audio/transcriptions" {
		apiError(w, http.StatusNotFound, "invalid_request_error", fmt.Sprintf("Invalid URL (%s %s)", r.Method, r.URL.Path), "", "")
		return
	}
	if s.apiKey != "" {
		key, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		switch {
		case !ok || key == "":
			apiError(w, http.StatusUnauthorized, "invalid_request_error", "You didn't provide an API key. You need to provide your API key in an Authorization header using Bearer auth (i.e. Authorization: Bearer YOUR_KEY).", "", "")
			return
		case key != s.apiKey:
			apiError(w, http.StatusUnauthorized, "invalid_request_error", "Incorrect API key provided: "+redact(key)+". You can find your API key at https://platform.openai.com/account/api-keys.", "", "invalid_api_key")
			return
		}
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxUpload+1))
	if err != nil {
		s.Violate("the upload could not be read: %v", err)
		apiError(w, http.StatusBadRequest, "invalid_request_error", "Could not read the request body.", "", "")
		return
	}
	if len(body) > MaxUpload {
		apiError(w, http.StatusRequestEntityTooLarge, "server_error", fmt.Sprintf("Maximum content size limit (%d) exceeded (%d bytes read)", MaxUpload, len(body)), "", "")
		return
	}
	req, msg := parseUpload(r, body)
	if msg != "" {
		s.Violate("%s", msg)
		apiError(w, http.StatusBadRequest, "invalid_request_error", msg, "", "")
		return
	}
	if msg := checkFile(req); msg != "" {
		apiError(w, http.StatusBadRequest, "invalid_request_error", msg, "file", "")
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, req)
	var reply Reply
	switch {
	case len(s.queue) > 0:
		reply, s.queue = s.queue[0], s.queue[1:]
	case s.def != nil:
		reply = *s.def
	default:
		reply = Fail(http.StatusInternalServerError, "server_error", "faketranscribe: no reply scripted for this upload")
	}
	s.mu.Unlock()
	s.Notify()
	if reply.Status != 0 {
		apiError(w, reply.Status, reply.Type, reply.Message, "", "")
		return
	}
	answer(w, req.ResponseFormat, reply)
}

// parseUpload reads the multipart form, or says what is wrong with it.
func parseUpload(r *http.Request, body []byte) (*Request, string) {
	mt, params, err := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if err != nil || mt != "multipart/form-data" {
		return nil, "The request's Content-Type must be multipart/form-data, got " + r.Header.Get("Content-Type")
	}
	parts, err := fakeserver.ReadParts(bytes.NewReader(body), params["boundary"])
	if err != nil {
		return nil, "The multipart body could not be parsed: " + err.Error()
	}
	req := &Request{Header: r.Header.Clone()}
	hasFile := false
	for _, p := range parts {
		switch p.Name {
		case "file":
			req.FileName, req.ContentType, req.Data, hasFile = p.FileName, p.ContentType, p.Data, true
		case "model":
			req.Model = string(p.Data)
		case "response_format":
			req.ResponseFormat = string(p.Data)
		case "language":
			req.Language = string(p.Data)
		case "prompt", "temperature", "timestamp_granularities[]", "chunking_strategy", "include[]", "stream":
		default:
			return nil, fmt.Sprintf("Unrecognized request argument supplied: %s", p.Name)
		}
	}
	switch {
	case !hasFile:
		return nil, "1 validation error for Request: body -> file: field required"
	case req.Model == "":
		return nil, "you must provide a model parameter"
	}
	switch req.ResponseFormat {
	case "", "json", "text", "verbose_json", "srt", "vtt":
	default:
		return nil, fmt.Sprintf("Invalid value for 'response_format': %q", req.ResponseFormat)
	}
	return req, ""
}

// checkFile refuses what the API cannot decode: a name without a supported extension, or a
// file whose content is not what its name says.
func checkFile(req *Request) string {
	ext := strings.TrimPrefix(strings.ToLower(path.Ext(req.FileName)), ".")
	supported := false
	for _, f := range Formats {
		supported = supported || f == ext
	}
	if !supported {
		return fmt.Sprintf("Invalid file format. Supported formats: ['%s']", strings.Join(Formats, "', '"))
	}
	magic := map[string]string{"ogg": "OggS", "oga": "OggS", "wav": "RIFF", "flac": "fLaC"}
	if m, ok := magic[ext]; ok && !bytes.HasPrefix(req.Data, []byte(m)) {
		return "The audio file could not be decoded or its format is not supported."
	}
	return ""
}

// answer writes a transcript in the response format asked for.
func answer(w http.ResponseWriter, format string, r Reply) {
	switch format {
	case "text", "srt", "vtt":
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		_, _ = io.WriteString(w, r.Text+"\n")
		return
	case "verbose_json":
		body := map[string]any{"task": "transcribe", "language": "english", "duration": r.Seconds, "text": r.Text,
			"segments": []any{map[string]any{"id": 0, "start": 0.0, "end": r.Seconds, "text": r.Text}}}
		if r.Seconds > 0 {
			body["usage"] = map[string]any{"type": "duration", "seconds": r.Seconds}
		}
		writeJSON(w, body)
		return
	}
	body := map[string]any{"text": r.Text}
	if r.Seconds > 0 {
		body["usage"] = map[string]any{"type": "duration", "seconds": r.Seconds}
	}
	writeJSON(w, body)
}

func writeJSON(w http.ResponseWriter, v any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(v)
}

// redact shows a key as the API does in its error: the start and the last four characters.
func redact(key string) string {
	if len(key) <= 8 {
		return "****"
	}
	return key[:3] + "*****" + key[len(key)-4:]
}
