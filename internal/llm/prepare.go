package llm

// Prepare returns the messages a provider should send for history, repairing what an earlier
// crash, abort or error could have left behind so that every request is valid:
//
//   - assistant messages that ended in error or were aborted are dropped (their partial text
//     is not a turn the model completed, and providers reject empty assistant turns);
//   - a tool call without a result gets one, an error saying no result was recorded;
//   - a tool result whose call is not in the preceding assistant message is dropped.
//
// history itself is not modified.
func Prepare(history []Message) []Message {
	out := make([]Message, 0, len(history))
	var pending []Content // tool calls of the last assistant message still waiting for results
	flush := func() {
		for _, call := range pending {
			out = append(out, Message{
				Role: RoleToolResult, ToolCallID: call.ID, ToolName: call.Name, IsError: true,
				Content: []Content{Text("No result was recorded for this tool call.")},
			})
		}
		pending = nil
	}
	for _, m := range history {
		switch m.Role {
		case RoleAssistant:
			flush()
			if m.StopReason == StopError || m.StopReason == StopAborted {
				continue
			}
			out = append(out, m)
			pending = m.ToolCalls()
		case RoleToolResult:
			i := indexOfCall(pending, m.ToolCallID)
			if i < 0 {
				continue
			}
			pending = append(pending[:i:i], pending[i+1:]...)
			out = append(out, m)
		default:
			flush()
			out = append(out, m)
		}
	}
	flush()
	return out
}

func indexOfCall(calls []Content, id string) int {
	for i, c := range calls {
		if c.ID == id {
			return i
		}
	}
	return -1
}
