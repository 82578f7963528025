package fakeslack

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

	"github.com/mom-agent/mom/internal/fake/fakeserver"
)

// filesGetUploadURLExternal is step one of an upload: it reserves a file id and hands out an
// upload URL on this server.
func (s *Server) filesGetUploadURLExternal(q *apiReq) (obj, *apiError) {
	if e := q.need("filename", "length"); e != nil {
		return nil, e
	}
	n, err := strconv.Atoi(q.form.Get("length"))
	if err != nil || n <= 0 {
		return nil, &apiError{code: "invalid_arguments", violation: "length must be a positive integer",
			extra: obj{"response_metadata": obj{"messages": []string{"[ERROR] invalid value for field: length"}}}}
	}
	f := s.newFile(File{Name: q.form.Get("filename")}, s.cfg.botUser, false)
	f.declared = n
	slot := strings.ReplaceAll(uuid(), "-", "")
	s.slots[slot] = f.ID
	return obj{"upload_url": s.root() + "upload/v1/" + slot, "file_id": f.ID}, nil
}

// serveUpload is step two: the client POSTs the bytes, raw or as a multipart form with the
// field "file", and Slack answers "OK - <size>".
func (s *Server) serveUpload(w http.ResponseWriter, r *http.Request, slot string) {
	content, problem := readUpload(r)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.Notify()
	f := s.files[s.slots[slot]]
	switch {
	case r.Method != http.MethodPost:
		s.Violate("upload: %s to the upload URL (POST the file)", r.Method)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	case f == nil:
		s.Violate("upload: POST to an unknown upload URL %s", r.URL.Path)
		http.NotFound(w, r)
		return
	case problem != "":
		s.Violate("upload: %s", problem)
		http.Error(w, problem, http.StatusBadRequest)
		return
	case f.completed:
		s.Violate("upload: file %s is already completed", f.ID)
	}
	if len(content) != f.declared {
		s.Violate("upload: file %s has %d bytes but files.getUploadURLExternal declared length %d", f.ID, len(content), f.declared)
	}
	f.Content, f.uploaded = content, true
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	fmt.Fprintf(w, "OK - %d", len(content))
}

func readUpload(r *http.Request) ([]byte, string) {
	ct, params, _ := mime.ParseMediaType(r.Header.Get("Content-Type"))
	if ct != "multipart/form-data" {
		b, err := io.ReadAll(r.Body)
		if err != nil {
			return nil, "reading the body: " + err.Error()
		}
		return b, ""
	}
	parts, err := fakeserver.ReadParts(r.Body, params["boundary"])
	if err != nil {
		return nil, "malformed multipart body: " + err.Error()
	}
	// The file is the "file" field, or else the first part with a file name.
	var fallback []byte
	found := false
	for _, p := range parts {
		if p.Name == "file" {
			return p.Data, ""
		}
		if p.FileName != "" && !found {
			fallback, found = p.Data, true
		}
	}
	if found {
		return fallback, ""
	}
	return nil, `multipart body without a "file" field`
}

// filesCompleteUploadExternal is step three: it finishes the uploads and, with a channel,
// shares them as one message of the bot (subtype file_share, text initial_comment).
func (s *Server) filesCompleteUploadExternal(q *apiReq) (obj, *apiError) {
	if e := q.need("files"); e != nil {
		return nil, e
	}
	var sums []struct {
		ID    string `json:"id"`
		Title string `json:"title"`
	}
	if err := json.Unmarshal([]byte(q.form.Get("files")), &sums); err != nil || len(sums) == 0 {
		return nil, &apiError{code: "invalid_arguments", violation: `files must be a JSON array of {"id","title"}`,
			extra: obj{"response_metadata": obj{"messages": []string{"[ERROR] invalid value for field: files"}}}}
	}
	var files []*file
	for _, sum := range sums {
		f := s.files[sum.ID]
		if f == nil || f.user != s.cfg.botUser {
			return nil, fail("file_not_found")
		}
		if !f.uploaded {
			return nil, &apiError{code: "file_not_found", violation: "file " + sum.ID + " was never uploaded to its upload URL"}
		}
		files = append(files, f)
	}
	target := q.form.Get("channel_id")
	if target == "" {
		target, _, _ = strings.Cut(q.form.Get("channels"), ",")
	}
	var ch *channel
	thread := ""
	if target != "" {
		c, e := s.writable(&apiReq{form: url.Values{"channel": {target}}}, "channel")
		if e != nil {
			return nil, e
		}
		ch = c
		if thread, e = threadRoot(ch, q.form.Get("thread_ts")); e != nil {
			return nil, e
		}
	}
	out := []obj{}
	for i, f := range files {
		if sums[i].Title != "" {
			f.Title = sums[i].Title
		}
		f.completed = true
		out = append(out, obj{"id": f.ID, "title": f.Title})
		u := Upload{FileID: f.ID, ThreadTS: thread, Filename: f.Name, Title: f.Title,
			InitialComment: q.form.Get("initial_comment"), Content: f.Content}
		if ch != nil {
			u.Channel = ch.ID
		}
		s.uploads = append(s.uploads, u)
	}
	if ch != nil {
		s.botMessage(ch, thread, q.form.Get("initial_comment"), nil, files)
	}
	return obj{"files": out}, nil
}

func (s *Server) filesInfo(q *apiReq) (obj, *apiError) {
	if e := q.need("file"); e != nil {
		return nil, e
	}
	f := s.files[q.form.Get("file")]
	if f == nil || !f.uploaded {
		return nil, fail("file_not_found")
	}
	return obj{"file": s.wireFile(f), "comments": []any{}, "response_metadata": obj{"next_cursor": ""}}, nil
}

// serveFile serves url_private and url_private_download. With the bot token it answers the
// bytes (or redirects to File.MovedTo); without it, like Slack, it redirects to the sign-in page, which answers 200 with
// HTML, so a client that forgets the token saves a web page.
func (s *Server) serveFile(w http.ResponseWriter, r *http.Request) {
	// /files-pri/<team>-<file id>/[download/]<name>
	rest := strings.TrimPrefix(r.URL.Path, "/files-pri/")
	key, _, _ := strings.Cut(rest, "/")
	_, id, _ := strings.Cut(key, "-")
	tok, _ := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	s.mu.Lock()
	f := s.files[id]
	authorized := tok == s.cfg.botToken
	switch {
	case f == nil || !f.uploaded:
	case !authorized:
		s.Violate("file download of %s without the bot token (send Authorization: Bearer <bot token>)", id)
	default:
		s.downloads = append(s.downloads, id)
	}
	s.Notify()
	var content []byte
	var mimetype, name, movedTo string
	if f != nil {
		content, mimetype, name, movedTo = f.Content, f.Mimetype, f.Name, f.MovedTo
	}
	s.mu.Unlock()

	switch {
	case f == nil || !f.uploaded:
		http.NotFound(w, r)
	case !authorized:
		http.Redirect(w, r, s.root()+"?redir="+url.QueryEscape(r.URL.Path), http.StatusFound)
	case movedTo != "":
		http.Redirect(w, r, movedTo, http.StatusFound)
	default:
		w.Header().Set("Content-Type", mimetype)
		w.Header().Set("Content-Length", strconv.Itoa(len(content)))
		if strings.Contains(rest, "/download/") {
			w.Header().Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
		}
		_, _ = io.Copy(w, bytes.NewReader(content))
	}
}

// serveSignIn answers like the workspace's sign-in page.
func serveSignIn(w http.ResponseWriter) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, `<!DOCTYPE html>
<html lang="en-US"><head><meta charset="utf-8"><title>Sign in | Slack</title></head>
<body><h1>Sign in to your workspace</h1>
<form action="/signin" method="post"><input type="email" name="email"><button type="submit">Sign In With Email</button></form>
</body></html>
`)
}
