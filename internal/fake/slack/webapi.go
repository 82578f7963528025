package fakeslack

import (
	"bytes"
	"encoding/json"
	"io"
	"math"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
)

// obj is a Web API answer; serveAPI adds "ok".
type obj = map[string]any

// apiError is a Web API error answer.
type apiError struct {
	code      string
	extra     obj    // merged into the body, e.g. response_metadata
	violation string // recorded in Violations when set
}

func fail(code string) *apiError { return &apiError{code: code} }

// apiReq is one decoded Web API call.
type apiReq struct {
	form url.Values
}

type methodSpec struct {
	handle   func(*Server, *apiReq) (obj, *apiError)
	appToken bool // needs the app-level token instead of the bot token
	json     bool // accepts a JSON body (Slack takes JSON only for write methods)
}

// methodTable lists the Web API methods the fake implements.
func methodTable() map[string]methodSpec {
	return map[string]methodSpec{
		"auth.test":                    {handle: (*Server).authTest},
		"apps.connections.open":        {handle: (*Server).appsConnectionsOpen, appToken: true, json: true},
		"users.list":                   {handle: (*Server).usersList},
		"users.info":                   {handle: (*Server).usersInfo},
		"users.conversations":          {handle: (*Server).usersConversations},
		"conversations.list":           {handle: (*Server).conversationsList},
		"conversations.info":           {handle: (*Server).conversationsInfo},
		"conversations.history":        {handle: (*Server).conversationsHistory},
		"conversations.replies":        {handle: (*Server).conversationsReplies},
		"conversations.members":        {handle: (*Server).conversationsMembers},
		"chat.postMessage":             {handle: (*Server).chatPostMessage, json: true},
		"chat.update":                  {handle: (*Server).chatUpdate, json: true},
		"chat.delete":                  {handle: (*Server).chatDelete, json: true},
		"chat.postEphemeral":           {handle: (*Server).chatPostEphemeral, json: true},
		"files.getUploadURLExternal":   {handle: (*Server).filesGetUploadURLExternal},
		"files.completeUploadExternal": {handle: (*Server).filesCompleteUploadExternal, json: true},
		"files.info":                   {handle: (*Server).filesInfo},
	}
}

// RateLimit makes the next n calls of method answer HTTP 429 with Retry-After (whole seconds,
// rounded up, at least 1) and {"ok":false,"error":"ratelimited"}, as Slack does. A call of
// the method before the Retry-After of its last 429 has passed is answered 429 again and
// recorded in Violations.
func (s *Server) RateLimit(method string, n int, retryAfter time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	secs := max(1, int(math.Ceil(retryAfter.Seconds())))
	s.limits.Set(method, n, time.Duration(secs)*time.Second)
}

// LoseAnswers makes the next n calls of method that succeed do what they ask, and never
// answer: the caller waits until it hangs up, as when the connection dies after Slack has
// acted on a request. A chat.postMessage answered so has posted a message whose ts the
// client never learns.
func (s *Server) LoseAnswers(method string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lose == nil {
		s.lose = map[string]int{}
	}
	s.lose[method] = n
}

func (s *Server) serveAPI(w http.ResponseWriter, r *http.Request, method string) {
	p := readParams(r)
	s.mu.Lock()
	call := Call{Method: method, Form: p.form, At: s.now()}
	status, header, body := s.answer(r, &call, p)
	if s.lose[method] > 0 && status == http.StatusOK && body["ok"] == true {
		s.lose[method]--
		s.calls = append(s.calls, call)
		s.Notify()
		s.mu.Unlock()
		select {
		case <-r.Context().Done():
		case <-s.closing:
		}
		return
	}
	if p.warning != "" && status == http.StatusOK {
		body["warning"] = p.warning
		rm, _ := body["response_metadata"].(obj)
		if rm == nil {
			rm = obj{}
		}
		rm["warnings"] = []string{p.warning}
		body["response_metadata"] = rm
	}
	s.calls = append(s.calls, call)
	s.Notify()
	s.mu.Unlock()

	b, err := json.Marshal(body)
	if err != nil {
		b = []byte(`{"ok":false,"error":"internal_error"}`)
	}
	for k, v := range header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("X-Slack-Req-Id", uuid())
	w.WriteHeader(status)
	_, _ = w.Write(b)
}

// answer runs one call with s.mu held and returns the HTTP status, extra headers and body.
func (s *Server) answer(r *http.Request, call *Call, p params) (int, http.Header, obj) {
	method := call.Method
	spec, ok := s.methods[method]
	errBody := func(e *apiError) obj {
		call.Error = e.code
		if e.violation != "" {
			s.Violate("%s: %s", method, e.violation)
		}
		b := obj{"ok": false, "error": e.code}
		for k, v := range e.extra {
			b[k] = v
		}
		return b
	}
	if !ok {
		return http.StatusOK, nil, errBody(&apiError{code: "unknown_method", extra: obj{"req_method": method},
			violation: "unknown method (fakeslack implements " + strings.Join(s.methodNames(), ", ") + ")"})
	}
	if refusal, refused := s.limits.Check(method, call.At); refused {
		if refusal.Early > 0 {
			s.Violate("%s: called again %v before the Retry-After of its last 429 had passed", method, refusal.Early.Round(time.Millisecond))
		}
		call.Error = "ratelimited"
		return http.StatusTooManyRequests, http.Header{"Retry-After": {strconv.Itoa(int(refusal.Wait / time.Second))}},
			obj{"ok": false, "error": "ratelimited"}
	}
	if p.problem != "" {
		return http.StatusOK, nil, errBody(&apiError{code: p.problem, violation: "unreadable request (" + p.problem + ", Content-Type " + strconv.Quote(r.Header.Get("Content-Type")) + ")"})
	}
	args := p.form
	if p.json && !spec.json {
		// Slack reads JSON bodies only for write methods; the arguments go unseen.
		s.Violate("%s: sent a JSON body, which Slack does not read for this method (send a form)", method)
		args = url.Values{}
	}
	if e := s.authorize(r, args, p.json, spec.appToken); e != nil {
		return http.StatusOK, nil, errBody(e)
	}
	res, e := spec.handle(s, &apiReq{form: args})
	if e != nil {
		return http.StatusOK, nil, errBody(e)
	}
	res["ok"] = true
	return http.StatusOK, nil, res
}

func (s *Server) methodNames() []string {
	var out []string
	for k := range s.methods {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// authorize checks the token: Authorization: Bearer, or the token argument of a form.
func (s *Server) authorize(r *http.Request, form url.Values, isJSON, app bool) *apiError {
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	tok = strings.TrimSpace(tok)
	if tok == "" && !isJSON {
		tok = form.Get("token")
	}
	want, other, kind := s.cfg.botToken, s.cfg.appToken, "bot"
	if app {
		want, other, kind = s.cfg.appToken, s.cfg.botToken, "app-level"
	}
	switch tok {
	case want:
		return nil
	case "":
		return &apiError{code: "not_authed", violation: "no token (send Authorization: Bearer <" + kind + " token>)"}
	case other:
		return &apiError{code: "not_allowed_token_type", violation: "wrong token type (this method needs the " + kind + " token)"}
	}
	return &apiError{code: "invalid_auth", violation: "invalid token " + strconv.Quote(tok)}
}

// params is the decoded body and query of a call.
type params struct {
	form    url.Values
	json    bool
	warning string // Slack's warning about the Content-Type, e.g. missing_charset
	problem string // Slack's error for a body it cannot read, e.g. invalid_json
}

// readParams decodes the arguments of a call: query parameters, then a form, multipart form
// or JSON body on top, the way Slack reads them.
func readParams(r *http.Request) params {
	p := params{form: url.Values{}}
	for k, v := range r.URL.Query() {
		p.form[k] = v
	}
	body, err := io.ReadAll(r.Body)
	if err != nil {
		p.problem = "request_timeout"
		return p
	}
	header := r.Header.Get("Content-Type")
	ct, ps, _ := mime.ParseMediaType(header)
	charset, hasCharset := ps["charset"]
	if hasCharset && !strings.EqualFold(charset, "utf-8") && !strings.EqualFold(charset, "iso-8859-1") {
		p.problem = "invalid_charset"
		return p
	}
	switch {
	case len(bytes.TrimSpace(body)) == 0 && ct != "application/json":
		return p
	case header == "":
		p.problem = "missing_post_type"
	case ct == "application/json":
		p.json = true
		if !hasCharset {
			p.warning = "missing_charset"
		}
		if len(bytes.TrimSpace(body)) == 0 {
			return p
		}
		var m map[string]any
		if err := json.Unmarshal(body, &m); err != nil {
			p.problem = "invalid_json"
			return p
		}
		for k, v := range m {
			p.form.Set(k, flatten(v))
		}
	case ct == "multipart/form-data":
		r.Body = io.NopCloser(bytes.NewReader(body))
		if err := r.ParseMultipartForm(32 << 20); err != nil {
			p.problem = "invalid_form_data"
			return p
		}
		for k, v := range r.MultipartForm.Value {
			p.form[k] = v
		}
	case ct == "application/x-www-form-urlencoded" || ct == "text/plain":
		if hasCharset {
			p.warning = "superfluous_charset"
		}
		v, err := url.ParseQuery(string(body))
		if err != nil {
			p.problem = "invalid_form_data"
			return p
		}
		for k, vs := range v {
			p.form[k] = vs
		}
	default:
		p.problem = "invalid_post_type"
	}
	return p
}

// flatten renders a JSON value as the string a form would carry.
func flatten(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case nil:
		return ""
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// need returns Slack's invalid_arguments error when a required argument is missing.
func (q *apiReq) need(names ...string) *apiError {
	var msgs []string
	for _, n := range names {
		if q.form.Get(n) == "" {
			msgs = append(msgs, "[ERROR] missing required field: "+n)
		}
	}
	if msgs == nil {
		return nil
	}
	return &apiError{code: "invalid_arguments", extra: obj{"response_metadata": obj{"messages": msgs}},
		violation: strings.Join(msgs, "; ")}
}

// flag reads a boolean argument the way Slack does: true/1.
func (q *apiReq) flag(name string) bool {
	v := strings.ToLower(q.form.Get(name))
	return v == "true" || v == "1"
}

// limit is the page size for a call: its limit argument (def when absent), capped by the
// server's page size.
func (s *Server) limit(q *apiReq, def int) int {
	n, err := strconv.Atoi(q.form.Get("limit"))
	if err != nil || n <= 0 {
		n = def
	}
	return min(n, s.cfg.pageSize)
}
