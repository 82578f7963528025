package session

import (
	"encoding/json"
	"fmt"

	"github.com/mom-agent/mom/internal/llm"
)

// A model change is pi's model_change entry: {"type":"model_change", ..., "provider",
// "modelId"}. pi writes one when a session switches models, and so does mom when a channel's
// model changes (config.json, `/model`), so that pi's tools show which model said what.

type modelChangeLine struct {
	head
	Provider string `json:"provider"`
	ModelID  string `json:"modelId"`
}

// AppendModelChange records that the session's model is now provider/modelID.
func (s *Session) AppendModelChange(provider, modelID string) (Entry, error) {
	if provider == "" || modelID == "" {
		return Entry{}, fmt.Errorf("append a model change to %s: it needs a provider and a model id", s.path)
	}
	var raw json.RawMessage
	e, err := s.append(Entry{Type: TypeModelChange}, func(h head, e *Entry) any {
		line := modelChangeLine{h, provider, modelID}
		raw, _ = json.Marshal(line)
		return line
	})
	if err != nil {
		return e, err
	}
	s.mu.Lock()
	s.entries[s.byID[e.ID]].Raw = raw
	s.mu.Unlock()
	e.Raw = raw
	return e, nil
}

// Model returns the model the session last used on its active branch: the newest model
// change, or the model of the newest assistant message, whichever is later; ok is false for
// a session that has used none yet.
func (s *Session) Model() (provider, modelID string, ok bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := len(s.branch) - 1; i >= 0; i-- {
		e := &s.entries[s.branch[i]]
		switch {
		case e.Type == TypeModelChange:
			var m struct {
				Provider string `json:"provider"`
				ModelID  string `json:"modelId"`
			}
			if json.Unmarshal(e.Raw, &m) == nil && m.Provider != "" && m.ModelID != "" {
				return m.Provider, m.ModelID, true
			}
		case e.Type == TypeMessage && e.Message != nil && e.Message.Role == llm.RoleAssistant && e.Message.Model != "":
			return e.Message.Provider, e.Message.Model, true
		}
	}
	return "", "", false
}
