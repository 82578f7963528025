package web

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/store"
)

// Limits on what people send.
const (
	// maxText is the longest message, as in the terminal.
	maxText = 1 << 20
	// maxUpload is the largest file a person may attach: mom's limit for a file a person
	// sends on the other platforms too.
	maxUpload = 25 << 20
	// maxFiles is how many files one message may carry.
	maxFiles = 10
)

// listChannels answers GET /api/channels.
func (a *Adapter) listChannels(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"adapter": a.opts.Name, "channels": a.channels()})
}

// createChannel answers POST /api/channels {"name": "..."}: it makes web/<name>'s directory.
func (a *Adapter) createChannel(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "send the new channel as JSON: {\"name\": \"ops\"}")
		return
	}
	name := strings.TrimSpace(req.Name)
	if err := checkChannelName(name); err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, name)
	if err == nil {
		err = ch.Create()
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("could not create channel %s: %v", name, err))
		return
	}
	a.live.broadcast(frame{Type: "channel", Channel: name})
	writeJSON(w, http.StatusCreated, chat.Channel{ID: name, Name: name, Kind: chat.KindChannel})
}

// channel returns the channel a request names, or answers with why it cannot be used.
func (a *Adapter) channel(w http.ResponseWriter, r *http.Request) (*store.ChannelDir, bool) {
	id := r.PathValue("channel")
	if err := checkChannelName(id); err != nil {
		writeError(w, http.StatusNotFound, err.Error())
		return nil, false
	}
	ch, err := a.opts.Store.ChannelDir(a.opts.Name, id)
	if err != nil {
		writeError(w, http.StatusInternalServerError, err.Error())
		return nil, false
	}
	return ch, true
}

// send answers POST /api/channels/{channel}/messages, a multipart form with "name" (the
// display name), "text" and any number of "file" parts. Files are saved into the channel's
// attachments/ first; the message is answered once it is in log.jsonl. When anything is
// wrong, nothing is kept and the page keeps what was typed.
func (a *Adapter) send(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, maxFiles*(maxUpload+64<<10)+maxText+64<<10)
	mr, err := r.MultipartReader()
	if err != nil {
		writeError(w, http.StatusBadRequest, "send the message as multipart/form-data with \"name\", \"text\" and \"file\" parts")
		return
	}
	now := time.Now()
	m := chat.Message{ID: a.nextID(now), ChannelID: ch.ID(), TS: now, IsMention: true}
	var name string
	status, err := a.readParts(mr, ch, now, &name, &m)
	if err == nil {
		m.Sender, err = person(name, a.Bot().Username)
		status = http.StatusBadRequest
	}
	if err == nil {
		m.Text = withoutMention(m.Text, a.Bot().Username)
		if m.Text == "" && len(m.Attachments) == 0 {
			err = errors.New("the message is empty: write something or attach a file")
		}
	}
	if err == nil {
		a.remember(m.Sender)
		if err = a.receive(r.Context(), m); err != nil {
			status, err = http.StatusServiceUnavailable, fmt.Errorf("mom could not take the message: %w", err)
		}
	}
	if err != nil {
		discard(ch, m.Attachments)
		writeError(w, status, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// receive hands a person's message to the hub and shows it to the browsers once it is
// logged (unless the run it started has shown it already). mom's notes in answer to it, which
// the hub may post before Receive returns, follow it.
func (a *Adapter) receive(ctx context.Context, m chat.Message) error {
	a.notes.hold(m.ChannelID)
	err := a.inbox().Receive(ctx, a.opts.Name, m)
	var show func()
	if err == nil {
		show = func() { a.showMessage(m) }
	}
	a.notes.release(m.ChannelID, show)
	return err
}

// readParts reads the form's parts into m, saving files as they stream in.
func (a *Adapter) readParts(mr *multipart.Reader, ch *store.ChannelDir, now time.Time, name *string, m *chat.Message) (int, error) {
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			return http.StatusOK, nil
		}
		if err != nil {
			return tooLargeOr(err, http.StatusBadRequest), fmt.Errorf("the form could not be read: %w", err)
		}
		switch part.FormName() {
		case "name":
			b, _ := io.ReadAll(io.LimitReader(part, 1024))
			*name = string(b)
		case "text":
			b, err := io.ReadAll(io.LimitReader(part, maxText+1))
			if err != nil {
				return tooLargeOr(err, http.StatusBadRequest), fmt.Errorf("the message could not be read: %w", err)
			}
			if len(b) > maxText {
				return http.StatusRequestEntityTooLarge, fmt.Errorf("the message is longer than %d MB; attach it as a file instead", maxText>>20)
			}
			m.Text = strings.ToValidUTF8(string(b), "")
		case "file":
			if part.FileName() == "" {
				continue // an empty file input
			}
			if len(m.Attachments) == maxFiles {
				return http.StatusBadRequest, fmt.Errorf("a message can carry at most %d files", maxFiles)
			}
			att, err := ch.SaveAttachment(part.FileName(), now, part, maxUpload)
			if errors.Is(err, store.ErrTooLarge) {
				return http.StatusRequestEntityTooLarge, fmt.Errorf("%s is larger than the limit of %d MB", part.FileName(), maxUpload>>20)
			}
			if err != nil {
				return tooLargeOr(err, http.StatusInternalServerError), fmt.Errorf("%s could not be saved: %w", part.FileName(), err)
			}
			m.Attachments = append(m.Attachments, att)
		default:
			return http.StatusBadRequest, fmt.Errorf("unknown form field %q (use \"name\", \"text\" and \"file\")", part.FormName())
		}
	}
}

// tooLargeOr is 413 when the request went past the body limit, else status.
func tooLargeOr(err error, status int) int {
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		return http.StatusRequestEntityTooLarge
	}
	return status
}

// discard removes the files of a message that was refused.
func discard(ch *store.ChannelDir, atts []chat.Attachment) {
	for _, att := range atts {
		if att.LocalPath != "" {
			ch.RemoveAttachment(att.LocalPath)
		}
	}
}

// stop answers POST /api/channels/{channel}/stop {"name": "..."}: it says "stop" in the
// channel on the person's behalf, which is how every platform stops a run.
func (a *Adapter) stop(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "send who is stopping as JSON: {\"name\": \"ada\"}")
		return
	}
	u, err := person(req.Name, a.Bot().Username)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	now := time.Now()
	m := chat.Message{ID: a.nextID(now), ChannelID: ch.ID(), TS: now, Sender: u, Text: "stop", IsMention: true}
	a.remember(u)
	if err := a.receive(r.Context(), m); err != nil {
		writeError(w, http.StatusServiceUnavailable, "mom could not take the stop: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, m)
}

// checkName answers POST /api/name {"name": "..."}: the display name as mom will show it,
// or why it cannot be used, so the page can say so when the name is picked rather than at
// the first message.
func (a *Adapter) checkName(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Name string `json:"name"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil {
		writeError(w, http.StatusBadRequest, "send the display name as JSON: {\"name\": \"ada\"}")
		return
	}
	u, err := person(req.Name, a.Bot().Username)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	writeJSON(w, http.StatusOK, map[string]string{"name": u.DisplayName})
}

// download answers GET /api/channels/{channel}/files/{file}: a file from the channel's
// attachments/, and nothing outside it.
func (a *Adapter) download(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	name := r.PathValue("file")
	if name == "" || strings.HasPrefix(name, ".") || strings.ContainsAny(name, `/\`) || filepath.Base(name) != name {
		writeError(w, http.StatusNotFound, "no such file")
		return
	}
	// A link a command put in attachments/ (or in its place) is refused, never followed.
	f, err := ch.OpenAttachment("attachments/" + name)
	if err != nil {
		writeError(w, http.StatusNotFound, "no file "+name+" in "+ch.Key())
		return
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		writeError(w, http.StatusNotFound, "no file "+name+" in "+ch.Key())
		return
	}
	h := w.Header()
	h.Set("Content-Disposition", dispositionFor(name))
	// Never run what someone uploaded as a page of the chat.
	h.Set("Content-Security-Policy", "sandbox; default-src 'none'; img-src 'self'; style-src 'unsafe-inline'")
	http.ServeContent(w, r, name, st.ModTime(), f)
}

// dispositionFor makes the browser save a file under its name (without mom's time prefix).
func dispositionFor(name string) string {
	if _, rest, ok := strings.Cut(name, "_"); ok && rest != "" {
		name = rest
	}
	return "attachment; filename*=UTF-8''" + pathEscape(name)
}

// pathEscape percent-encodes everything but RFC 5987's attr-chars.
func pathEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.IndexByte("!#$&+-.^_`|~", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

// remember adds a person to the users mom knows.
func (a *Adapter) remember(u chat.User) {
	a.mu.Lock()
	a.users[u.ID] = u
	a.mu.Unlock()
}

// inbox is the hub, once started.
func (a *Adapter) inbox() chat.Inbox {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.in
}

// retry answers POST /api/channels/{channel}/retry {"name": "...", "id": "..."}: the error
// card's Retry. It says again, on the person's behalf, what the message with that id said
// (its text and files), so mom tries it anew; the message must be among the channel's
// recent history.
func (a *Adapter) retry(w http.ResponseWriter, r *http.Request) {
	ch, ok := a.channel(w, r)
	if !ok {
		return
	}
	var req struct {
		Name string `json:"name"`
		ID   string `json:"id"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 4096)).Decode(&req); err != nil || req.ID == "" {
		writeError(w, http.StatusBadRequest, "send what to retry as JSON: {\"name\": \"ada\", \"id\": \"<the message's id>\"}")
		return
	}
	u, err := person(req.Name, a.Bot().Username)
	if err != nil {
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	msgs, err := ch.TailMessages(historyMax)
	if err != nil {
		writeError(w, http.StatusInternalServerError, fmt.Sprintf("could not read the history of %s: %v", ch.Key(), err))
		return
	}
	i := slices.IndexFunc(msgs, func(m chat.Message) bool { return m.ID == req.ID && !m.Sender.IsBot })
	if i < 0 {
		writeError(w, http.StatusNotFound, "that message is no longer in the recent history of "+ch.Key()+"; send it again")
		return
	}
	now := time.Now()
	m := chat.Message{ID: a.nextID(now), ChannelID: ch.ID(), TS: now, Sender: u, Text: msgs[i].Text, Attachments: msgs[i].Attachments, IsMention: true}
	a.remember(u)
	if err := a.receive(r.Context(), m); err != nil {
		writeError(w, http.StatusServiceUnavailable, "mom could not take the message: "+err.Error())
		return
	}
	writeJSON(w, http.StatusOK, m)
}
