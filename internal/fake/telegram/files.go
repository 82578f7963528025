package faketelegram

import "net/http"

// maxDownload is the largest file getFile serves, as the Bot API limits it.
const maxDownload = 20 << 20

func (s *Server) getFile(r *request) (any, *apiError) {
	id := r.params["file_id"]
	f := s.files[id]
	switch {
	case id == "":
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: file_id not specified", violation: "getFile without file_id"}
	case f == nil:
		return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: invalid file_id", violation: "getFile of unknown file " + id}
	case len(f.Content) > maxDownload:
		return nil, badRequest("file is too big")
	}
	return obj{"file_id": f.ID, "file_unique_id": f.uniqueID, "file_size": len(f.Content), "file_path": f.path}, nil
}

// serveFile answers GET /file/bot<token>/<file_path>.
func (s *Server) serveFile(w http.ResponseWriter, path string) {
	s.mu.Lock()
	var found *file
	for _, f := range s.files {
		if f.path == path && len(f.Content) <= maxDownload {
			found = f
		}
	}
	if found == nil {
		s.Violate("download of %q, which no getFile returned", path)
		s.mu.Unlock()
		writeError(w, &apiError{code: http.StatusNotFound, desc: "Not Found"})
		return
	}
	content, movedTo := found.Content, s.movedTo
	s.mu.Unlock()
	if movedTo != "" {
		w.Header().Set("Location", movedTo)
		w.WriteHeader(http.StatusFound)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	_, _ = w.Write(content)
}

func (s *Server) sendDocument(r *request) (any, *apiError) {
	return s.sendFile(r, "sendDocument", "document")
}

func (s *Server) sendPhoto(r *request) (any, *apiError) { return s.sendFile(r, "sendPhoto", "photo") }

// sendFile takes an upload in the multipart field key, or a file_id of a known file. A photo
// must pass what sendPhoto documents (newPhoto).
func (s *Server) sendFile(r *request, method, key string) (any, *apiError) {
	c, thread, reply, err := s.place(r)
	if err != nil {
		return nil, err
	}
	up, uploaded := r.files[key]
	if !uploaded {
		known := s.files[r.params[key]]
		if known == nil {
			return nil, &apiError{code: http.StatusBadRequest, desc: "Bad Request: there is no " + key + " in the request",
				violation: method + " without a file upload in the multipart field " + key}
		}
		up = upload{name: known.Name, content: known.Content}
	}
	if len(up.content) == 0 {
		return nil, badRequest("file must be non-empty")
	}
	f := &file{File: File{Kind: Document, Name: up.name, MimeType: http.DetectContentType(up.content), Content: up.content}}
	if key == Photo {
		if f, err = newPhoto(up.content); err != nil {
			return nil, err
		}
	}
	caption, entities, markup, err := s.formatted(r, "caption", maxCaption)
	if err != nil {
		return nil, err
	}
	s.addFile(f)
	m := s.store(c, &message{Message: Message{ChatID: c.ID, Thread: thread, From: s.bot.ID, Date: timeNow(),
		Text: caption, Entities: entities, HTML: markup, ReplyTo: reply, File: &f.File}, fileRef: f})
	s.uploads = append(s.uploads, Upload{Method: method, ChatID: c.ID, Thread: thread, MessageID: m.ID,
		Filename: up.name, Caption: caption, Content: up.content})
	return s.wireMessage(c, m, false), nil
}
