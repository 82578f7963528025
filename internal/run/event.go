package run

import (
	"encoding/json"
	"time"

	"github.com/mom-agent/mom/internal/approval"
	"github.com/mom-agent/mom/internal/llm"
)

// Kind names a run event; the names are pi's AgentSessionEvent types.
type Kind string

// The events of a run, in the order they can occur. A run is agent_start, then one or more
// turns (turn_start, message_start/update/end for the model's answer, tool_execution_* for each
// tool call, turn_end), then agent_end. Retry and compaction events may come between turns.
const (
	AgentStart      Kind = "agent_start"
	TurnStart       Kind = "turn_start"
	MessageStart    Kind = "message_start"
	MessageUpdate   Kind = "message_update"
	MessageEnd      Kind = "message_end"
	ToolStart       Kind = "tool_execution_start"
	ToolUpdate      Kind = "tool_execution_update"
	ToolEnd         Kind = "tool_execution_end"
	TurnEnd         Kind = "turn_end"
	AgentEnd        Kind = "agent_end"
	CompactionStart Kind = "compaction_start"
	CompactionEnd   Kind = "compaction_end"
	RetryStart      Kind = "retry_start"
	RetryEnd        Kind = "retry_end"
	// ApprovalStart and ApprovalEnd are mom's own: a tool call waits for a person's yes
	// (after its tool_execution_start), and the answer came (before its
	// tool_execution_end).
	ApprovalStart Kind = "approval_start"
	ApprovalEnd   Kind = "approval_end"
)

// Event is one thing that happened during a run. Which fields are set depends on Type.
type Event struct {
	Type Kind `json:"type"`

	// message_start, message_update, message_end: the model's message so far (complete at
	// message_end, with usage). message_end is also sent for the user messages a run adds.
	Message *llm.Message `json:"message,omitempty"`
	// message_update: what arrived: Delta is new text ("text") or reasoning ("thinking").
	DeltaKind string `json:"deltaKind,omitempty"`
	Delta     string `json:"delta,omitempty"`

	// tool_execution_*: the call.
	ToolCallID string          `json:"toolCallId,omitempty"`
	ToolName   string          `json:"toolName,omitempty"`
	Args       json.RawMessage `json:"args,omitempty"`
	// Label is the call's "label" argument, or the tool's name when it has none.
	Label string `json:"label,omitempty"`
	// tool_execution_update: the output so far. tool_execution_end: the result text.
	Output string `json:"output,omitempty"`
	// tool_execution_end: the full result, whether it failed, and how long it took.
	Result   []llm.Content `json:"result,omitempty"`
	Details  any           `json:"details,omitempty"`
	IsError  bool          `json:"isError,omitempty"`
	Duration time.Duration `json:"-"`

	// retry_start: which attempt comes next, of how many, after what delay, and why.
	Attempt     int           `json:"attempt,omitempty"`
	MaxAttempts int           `json:"maxAttempts,omitempty"`
	Delay       time.Duration `json:"-"`

	// approval_start: the question; approval_end: the same with its decision.
	Approval *approval.Request `json:"approval,omitempty"`

	// compaction_start: why (Reason); compaction_end: what it did, or ErrorMessage.
	Compaction *CompactionInfo `json:"compaction,omitempty"`

	// agent_end: how the run ended. ErrorMessage is also set on retry_start and on a failed
	// compaction_end.
	StopReason   llm.StopReason `json:"stopReason,omitempty"`
	ErrorMessage string         `json:"errorMessage,omitempty"`
	// agent_end: tokens and cost of the whole run, and how full the context is now.
	Usage         *llm.Usage `json:"usage,omitempty"`
	ContextTokens int        `json:"contextTokens,omitempty"`
	ContextWindow int        `json:"contextWindow,omitempty"`
}

// Sink receives a run's events in order, on the run's goroutine. It must not block for long:
// a slow platform call belongs on the sink's own goroutine.
type Sink func(Event)

// Why a compaction ran, in CompactionInfo.Reason.
const (
	ReasonThreshold = "threshold" // the context outgrew the window minus the reserve
	ReasonOverflow  = "overflow"  // the model refused a request as too long
	ReasonManual    = "manual"    // someone asked (mom compact)
)

// CompactionInfo describes a compaction, on compaction_start (Reason only) and
// compaction_end.
type CompactionInfo struct {
	Reason string `json:"reason"`
	// TokensBefore and TokensAfter are the context's estimated size around the compaction.
	TokensBefore int `json:"tokensBefore,omitempty"`
	TokensAfter  int `json:"tokensAfter,omitempty"`
	// Kept is how many context.jsonl entries were kept word for word.
	Kept int `json:"kept,omitempty"`
	// Summary is the new summary.
	Summary string `json:"summary,omitempty"`
}
