package session

import (
	"encoding/json"

	"github.com/mom-agent/mom/internal/llm"
)

// Loading decodes message lines through the plain structs below instead of llm.Message's
// UnmarshalJSON: encoding/json re-validates the bytes at every level of nested
// UnmarshalJSON calls (line, message, content, block), which made loading a large file 2.5
// times slower. The structs mirror llm's wire form field for field; anything they cannot
// read (user content written as a plain string) falls back to llm's decoder, and a test
// fails if llm.Message or llm.Content gains a field these do not carry.

type wireContent struct {
	Type      llm.ContentType `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"thinkingSignature"`
	Redacted  bool            `json:"redacted"`
	Data      string          `json:"data"`
	MimeType  string          `json:"mimeType"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments"`
}

type wireMessage struct {
	Role         llm.Role        `json:"role"`
	Content      []wireContent   `json:"content"`
	API          string          `json:"api"`
	Provider     string          `json:"provider"`
	Model        string          `json:"model"`
	Usage        llm.Usage       `json:"usage"`
	StopReason   llm.StopReason  `json:"stopReason"`
	ErrorMessage string          `json:"errorMessage"`
	ToolCallID   string          `json:"toolCallId"`
	ToolName     string          `json:"toolName"`
	Details      json.RawMessage `json:"details"`
	IsError      bool            `json:"isError"`
	Timestamp    int64           `json:"timestamp"`
}

// wireLine is lineJSON with the message decoded the fast way.
type wireLine struct {
	Type             EntryType       `json:"type"`
	ID               string          `json:"id"`
	ParentID         *string         `json:"parentId"`
	Timestamp        string          `json:"timestamp"`
	Message          *wireMessage    `json:"message"`
	Summary          string          `json:"summary"`
	FirstKeptEntryID string          `json:"firstKeptEntryId"`
	TokensBefore     int             `json:"tokensBefore"`
	FromID           string          `json:"fromId"`
	Details          json.RawMessage `json:"details"`
	CustomType       string          `json:"customType"`
	Data             json.RawMessage `json:"data"`
}

func (w *wireLine) lineJSON() lineJSON {
	l := lineJSON{
		Type: w.Type, ID: w.ID, ParentID: w.ParentID, Timestamp: w.Timestamp, Summary: w.Summary,
		FirstKeptEntryID: w.FirstKeptEntryID, TokensBefore: w.TokensBefore, FromID: w.FromID,
		Details: w.Details, CustomType: w.CustomType, Data: w.Data,
	}
	if m := w.Message; m != nil {
		l.Message = &llm.Message{
			Role: m.Role, Timestamp: m.Timestamp, API: m.API, Provider: m.Provider, Model: m.Model,
			Usage: m.Usage, StopReason: m.StopReason, ErrorMessage: m.ErrorMessage,
			ToolCallID: m.ToolCallID, ToolName: m.ToolName, Details: m.Details, IsError: m.IsError,
		}
		if m.Content != nil {
			l.Message.Content = make([]llm.Content, len(m.Content))
			for i, c := range m.Content {
				l.Message.Content[i] = llm.Content(c)
			}
		}
	}
	return l
}

// decodeLine reads an entry line the fast way, or through llm's decoder when the fast way
// cannot.
func decodeLine(line []byte, l *lineJSON) error {
	var w wireLine
	if err := json.Unmarshal(line, &w); err == nil {
		*l = w.lineJSON()
		return nil
	}
	return json.Unmarshal(line, l)
}
