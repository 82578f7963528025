// Package agent is mom's agent (the spec's MomAgent): for one channel at a time it syncs the
// channel's log into the model's context, builds the system prompt, runs the loop of model calls
// and tool calls, appends every message to context.jsonl, and reports what happens as run events
// (package run: agent_start ... agent_end). It knows nothing about platforms; adapters render
// its events.
package agent
