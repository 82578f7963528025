// Package run names what the rest of mom sees of one agent run: the stream of run events the
// agent emits while it answers a trigger (Event; pi's AgentSessionEvent: agent_start,
// message_update, tool_execution_start, agent_end, ...), and the Reply that shows one run to
// people. The agent produces the events; the hub passes them to a Reply, which draws them with
// the shared renderer on the adapter's surface (chat platforms) or the adapter's own way
// (terminal, web chat). None of those needs to import the agent.
//
// "Event" is a busy word in mom. The events here are a run's; a model's streamed deltas are
// llm.StreamEvent, and the files that wake mom up on a schedule belong to package events.
package run
