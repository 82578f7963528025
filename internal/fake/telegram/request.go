package faketelegram

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// apiError is an error answer: error_code (also the HTTP status) and description.
type apiError struct {
	code       int
	desc       string
	retryAfter int
	violation  string // recorded in Violations when set
}

func badRequest(format string, args ...any) *apiError {
	return &apiError{code: http.StatusBadRequest, desc: "Bad Request: " + fmt.Sprintf(format, args...)}
}

// request is one decoded method call.
type request struct {
	params map[string]string
	files  map[string]upload // multipart file parts by field name
}

type upload struct {
	name    string
	content []byte
}

// handler answers one method; it runs with s.mu held and returns the result to send.
type handler func(s *Server, r *request) (any, *apiError)

// methods lists the Bot API methods the fake implements, by lower-case name.
var methods = map[string]struct {
	name   string
	handle handler
}{
	"getme":           {"getMe", (*Server).getMe},
	"getupdates":      {"getUpdates", nil}, // waits, so it is served outside the lock
	"deletewebhook":   {"deleteWebhook", (*Server).deleteWebhook},
	"getwebhookinfo":  {"getWebhookInfo", (*Server).getWebhookInfo},
	"sendmessage":     {"sendMessage", (*Server).sendMessage},
	"editmessagetext": {"editMessageText", (*Server).editMessageText},
	"deletemessage":   {"deleteMessage", (*Server).deleteMessage},
	"sendchataction":  {"sendChatAction", (*Server).sendChatAction},
	"getchatmember":   {"getChatMember", (*Server).getChatMember},
	"leavechat":       {"leaveChat", (*Server).leaveChat},
	"getfile":         {"getFile", (*Server).getFile},
	"senddocument":    {"sendDocument", (*Server).sendDocument},
	"sendphoto":       {"sendPhoto", (*Server).sendPhoto},

	"answercallbackquery": {"answerCallbackQuery", (*Server).answerCallbackQuery},
	"setmycommands":       {"setMyCommands", (*Server).setMyCommands},
	"getmycommands":       {"getMyCommands", (*Server).getMyCommands},
	"deletemycommands":    {"deleteMyCommands", (*Server).deleteMyCommands},
}

// maxBody bounds a request body: Telegram takes uploads of up to 50 MB.
const maxBody = 50<<20 + 1<<20

func (s *Server) serveMethod(w http.ResponseWriter, r *http.Request, name string) {
	m, known := methods[strings.ToLower(name)]
	req, perr := readRequest(r)
	s.mu.Lock()
	call := Call{Method: name, Params: req.params, At: timeNow()}
	if known {
		call.Method = m.name
	}
	var result any
	var err *apiError
	after := 0 // the retry_after of a 429
	if known && perr == nil {
		after = s.limited(m.name)
	}
	switch {
	case !known:
		err = &apiError{code: http.StatusNotFound, desc: "Not Found", violation: "call of unknown method " + name}
	case perr != nil:
		err = perr
	case after > 0:
		err = &apiError{code: http.StatusTooManyRequests, desc: "Too Many Requests: retry after " + strconv.Itoa(after), retryAfter: after}
	case m.handle == nil:
		s.mu.Unlock()
		s.getUpdates(w, r, req, &call)
		return
	default:
		result, err = m.handle(s, req)
	}
	s.finish(&call, err)
	s.mu.Unlock()
	if err != nil {
		writeError(w, err)
		return
	}
	writeOK(w, result)
}

// finish records a call and its outcome; s.mu is held.
func (s *Server) finish(call *Call, err *apiError) {
	if err != nil {
		call.Error = err.desc
		if err.violation != "" {
			s.Violate("%s: %s", call.Method, err.violation)
		}
	}
	s.calls = append(s.calls, *call)
	s.Notify()
}

func writeOK(w http.ResponseWriter, result any) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{"ok": true, "result": result})
}

func writeError(w http.ResponseWriter, e *apiError) {
	body := map[string]any{"ok": false, "error_code": e.code, "description": e.desc}
	if e.retryAfter > 0 {
		body["parameters"] = map[string]any{"retry_after": e.retryAfter}
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(e.code)
	_ = json.NewEncoder(w).Encode(body)
}

// readRequest decodes a call's parameters from the query string and a form, JSON or multipart
// body, as the Bot API accepts all four.
func readRequest(r *http.Request) (*request, *apiError) {
	req := &request{params: map[string]string{}, files: map[string]upload{}}
	for k, vs := range r.URL.Query() {
		req.params[k] = vs[0]
	}
	if r.Body == nil {
		return req, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
	if err != nil {
		return req, badRequest("could not read the request body: %v", err)
	}
	if len(body) == 0 {
		return req, nil
	}
	if len(body) >= maxBody {
		return req, &apiError{code: http.StatusRequestEntityTooLarge, desc: "Request Entity Too Large"}
	}
	ct, ctParams, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	switch ct {
	case "application/json":
		var obj map[string]json.RawMessage
		if err := json.Unmarshal(body, &obj); err != nil {
			return req, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse JSON object",
				violation: "malformed JSON body: " + err.Error()}
		}
		for k, v := range obj {
			var str string
			if json.Unmarshal(v, &str) == nil {
				req.params[k] = str
			} else {
				req.params[k] = string(v)
			}
		}
	case "application/x-www-form-urlencoded":
		form, err := url.ParseQuery(string(body))
		if err != nil {
			return req, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse request",
				violation: "malformed form body: " + err.Error()}
		}
		for k, vs := range form {
			req.params[k] = vs[0]
		}
	case "multipart/form-data":
		if err := readMultipart(req, body, ctParams["boundary"]); err != nil {
			return req, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse request",
				violation: "malformed multipart body: " + err.Error()}
		}
	default:
		return req, &apiError{code: http.StatusBadRequest, desc: "Bad Request: can't parse request",
			violation: fmt.Sprintf("body with unsupported Content-Type %q", r.Header.Get("Content-Type"))}
	}
	return req, nil
}

func readMultipart(req *request, body []byte, boundary string) error {
	parts, err := fakeserver.ReadParts(bytes.NewReader(body), boundary)
	if err != nil {
		return err
	}
	for _, p := range parts {
		if p.FileName != "" {
			req.files[p.Name] = upload{name: p.FileName, content: p.Data}
			req.params[p.Name] = p.FileName
			continue
		}
		req.params[p.Name] = string(p.Data)
	}
	return nil
}

// intParam reads an integer parameter; ok is false when it is absent. A value that is not an
// integer is a 400, as Telegram answers.
func (r *request) intParam(name string) (n int64, ok bool, err *apiError) {
	v, present := r.params[name]
	if !present || v == "" {
		return 0, false, nil
	}
	n, perr := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
	if perr != nil {
		return 0, false, &apiError{code: http.StatusBadRequest, desc: "Bad Request: invalid " + name + " specified",
			violation: fmt.Sprintf("%s is %q, not an integer", name, v)}
	}
	return n, true, nil
}

// RateLimit makes the next n calls of method (e.g. "sendMessage") answer 429 "Too Many
// Requests: retry after S" with parameters.retry_after S, as Telegram does when a bot posts
// too fast.
func (s *Server) RateLimit(method string, n, retryAfterSeconds int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.limits.Set(method, n, time.Duration(max(retryAfterSeconds, 1))*time.Second)
}

// limited returns the retry_after (seconds) a call of method is refused with, 0 when it is
// not: one of the next n after RateLimit, or one that came before the retry_after of the last
// 429 passed, which is also a violation (Telegram keeps refusing a bot that does not wait).
// s.mu is held.
func (s *Server) limited(method string) int {
	r, refused := s.limits.Check(method, timeNow())
	if !refused {
		return 0
	}
	if r.Early > 0 {
		s.Violate("%s: called again %v before the retry_after of the last 429 passed", method, r.Early.Round(time.Millisecond))
	}
	return int(r.Wait / time.Second)
}
