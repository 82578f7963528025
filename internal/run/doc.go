// Package run names what the rest of mom sees of one agent run: the stream of run events the
// agent emits while it answers a trigger (Event; pi's AgentSessionEvent: agent_start,
// message_update, tool_execution_start, agent_end, ...), and the Reply an adapter hands back
// to show one run to people. The agent produces events; the hub, the shared renderer and the
// terminal and web adapters consume them, without depending on the agent or on each other.
//
// "Event" is a busy word in mom. The events here are a run's; a model's streamed deltas are
// llm.StreamEvent, and the files that wake mom up on a schedule belong to package events.
package run
