package fakellm

import (
	"encoding/json"
	"net/http"
)

// The Messages API streaming events, with their fields in the documented order.
type (
	aStart struct {
		Type    string `json:"type"`
		Message aMsg   `json:"message"`
	}
	aBlockStart struct {
		Type         string `json:"type"`
		Index        int    `json:"index"`
		ContentBlock any    `json:"content_block"`
	}
	aBlockDelta struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
		Delta any    `json:"delta"`
	}
	aBlockStop struct {
		Type  string `json:"type"`
		Index int    `json:"index"`
	}
	aTextDelta struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	aThinkingDelta struct {
		Type     string `json:"type"`
		Thinking string `json:"thinking"`
	}
	aSignatureDelta struct {
		Type      string `json:"type"`
		Signature string `json:"signature"`
	}
	aJSONDelta struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
	}
	aMsgDelta struct {
		Type  string `json:"type"`
		Delta struct {
			StopReason   *string  `json:"stop_reason"`
			StopSequence *string  `json:"stop_sequence"`
			StopDetails  *aRefuse `json:"stop_details"`
		} `json:"delta"`
		Usage aUsage `json:"usage"`
	}
	aType struct {
		Type string `json:"type"`
	}
)

// streamAnthropic sends msg as the Messages API streams it: message_start, a ping, each
// content block as start/deltas/stop, then message_delta and message_stop.
func (s *Server) streamAnthropic(w http.ResponseWriter, r *http.Request, rep *Reply, msg aMsg) {
	sw := newSSEWriter(s, w, r, rep)
	h := http.Header{}
	h.Set("request-id", s.id("req_"))
	if !sw.start(h) {
		return
	}
	start := msg
	start.Content, start.StopReason, start.StopDetails = []aOut{}, nil, nil
	start.Usage.OutputTokens = 1
	head := []event{{"message_start", aStart{"message_start", start}}, {"ping", aType{"ping"}}}
	if !sw.sendAll(head) || !sw.sendAll(anthropicBlocks(rep, msg.Content)) || !sw.hold() {
		return
	}
	if rep.StreamError != nil {
		body := s.anthropicErrorBody(nil, rep.StreamError)
		body.RequestID = s.id("req_")
		sw.send(event{"error", body})
		return
	}
	var delta aMsgDelta
	delta.Type = "message_delta"
	delta.Delta.StopReason, delta.Delta.StopDetails = msg.StopReason, msg.StopDetails
	delta.Usage = msg.Usage
	delta.Usage.ServiceTier = ""
	sw.sendAll([]event{{"message_delta", delta}, {"message_stop", aType{"message_stop"}}})
}

// anthropicBlocks returns the events of every content block. Tool arguments are streamed as
// the Reply has them, so arguments that do not parse reach the client as they are.
func anthropicBlocks(rep *Reply, content []aOut) []event {
	var evs []event
	n := rep.ChunkSize
	call := 0
	for i, b := range content {
		switch b.Type {
		case "thinking":
			evs = append(evs, event{"content_block_start", aBlockStart{"content_block_start", i, aOut{Type: "thinking", Thinking: ptr(""), Signature: ptr("")}}})
			for _, c := range chunks(*b.Thinking, n) {
				evs = append(evs, delta(i, aThinkingDelta{"thinking_delta", c}))
			}
			evs = append(evs, delta(i, aSignatureDelta{"signature_delta", *b.Signature}))
		case "redacted_thinking":
			evs = append(evs, event{"content_block_start", aBlockStart{"content_block_start", i, b}})
		case "text":
			evs = append(evs, event{"content_block_start", aBlockStart{"content_block_start", i, aOut{Type: "text", Text: ptr("")}}})
			for _, c := range chunks(*b.Text, n) {
				evs = append(evs, delta(i, aTextDelta{"text_delta", c}))
			}
		case "tool_use":
			empty := json.RawMessage("{}")
			evs = append(evs, event{"content_block_start", aBlockStart{"content_block_start", i, aOut{Type: "tool_use", ID: b.ID, Name: b.Name, Input: &empty}}})
			evs = append(evs, delta(i, aJSONDelta{"input_json_delta", ""}))
			for _, c := range chunks(rep.ToolCalls[call].argsJSON(), n) {
				evs = append(evs, delta(i, aJSONDelta{"input_json_delta", c}))
			}
			call++
		}
		evs = append(evs, event{"content_block_stop", aBlockStop{"content_block_stop", i}})
	}
	return evs
}

func delta(i int, d any) event {
	return event{"content_block_delta", aBlockDelta{"content_block_delta", i, d}}
}
