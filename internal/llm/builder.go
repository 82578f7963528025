package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"time"
)

// Builder assembles an assistant message from a provider's stream and reports each piece to
// the listener as it arrives. Providers translate their protocol's events into its calls, so
// how blocks grow, how tool arguments are settled and how the final message is priced is the
// same for every provider.
type Builder struct {
	msg     Message
	model   Model
	onEvent func(StreamEvent)
	log     *slog.Logger
	// args collects each tool call's argument JSON by the block's position.
	args map[int]*strings.Builder
	// Usage is the answer's token count as the provider reports it; Finish prices it.
	Usage Usage
}

// NewBuilder starts an assistant message from provider ("anthropic", "openai") for model, in
// the wire protocol api (APIAnthropic, APIOpenAI). log receives what a person may need to
// know, such as arguments that did not parse.
func NewBuilder(provider, api string, model Model, onEvent func(StreamEvent), log *slog.Logger) *Builder {
	if onEvent == nil {
		onEvent = func(StreamEvent) {}
	}
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Builder{
		msg: Message{
			Role: RoleAssistant, API: api, Provider: provider, Model: model.ID,
			Timestamp: time.Now().UnixMilli(), Content: []Content{},
		},
		model: model, onEvent: onEvent, log: log, args: map[int]*strings.Builder{},
	}
}

// SetModel records the model id the provider says answered.
func (b *Builder) SetModel(id string) {
	if id != "" {
		b.msg.Model = id
	}
}

// Len is the number of blocks so far.
func (b *Builder) Len() int { return len(b.msg.Content) }

// Block returns the block at pos, for protocol details such as a signature.
func (b *Builder) Block(pos int) *Content { return &b.msg.Content[pos] }

// Start adds a block and returns its position. Text or thinking it already holds is
// reported as a delta; a tool call is reported as started.
func (b *Builder) Start(c Content) int {
	pos := len(b.msg.Content)
	text, thinking := c.Text, c.Thinking
	c.Text, c.Thinking = "", ""
	b.msg.Content = append(b.msg.Content, c)
	switch c.Type {
	case TypeToolCall:
		b.args[pos] = &strings.Builder{}
		b.onEvent(StreamEvent{Type: EventToolCallStart, Index: pos, ToolCallID: c.ID, ToolName: c.Name})
	case TypeText:
		b.AppendText(pos, text)
	case TypeThinking:
		b.AppendThinking(pos, thinking)
	}
	return pos
}

// AppendText adds answer text to the block at pos.
func (b *Builder) AppendText(pos int, s string) {
	if s == "" {
		return
	}
	b.msg.Content[pos].Text += s
	b.onEvent(StreamEvent{Type: EventTextDelta, Index: pos, Delta: s})
}

// AppendThinking adds reasoning to the block at pos.
func (b *Builder) AppendThinking(pos int, s string) {
	if s == "" {
		return
	}
	b.msg.Content[pos].Thinking += s
	b.onEvent(StreamEvent{Type: EventThinkingDelta, Index: pos, Delta: s})
}

// AppendArgs adds a fragment of the argument JSON of the tool call at pos.
func (b *Builder) AppendArgs(pos int, fragment string) {
	args := b.args[pos]
	if args == nil || fragment == "" {
		return
	}
	args.WriteString(fragment)
	b.onEvent(StreamEvent{Type: EventToolCallDelta, Index: pos, Delta: fragment})
}

// Settle parses the collected arguments of the tool call at pos. Arguments that are not a
// JSON object become {}, so the tool's own validation tells the model what is missing; the raw
// text is logged, because it is the only trace of what the model actually sent.
func (b *Builder) Settle(pos int) {
	args := b.args[pos]
	if args == nil {
		return
	}
	delete(b.args, pos)
	c := &b.msg.Content[pos]
	raw := bytes.TrimSpace([]byte(args.String()))
	switch {
	case len(raw) == 0:
		c.Arguments = json.RawMessage("{}")
	case raw[0] == '{' && json.Valid(raw):
		c.Arguments = json.RawMessage(raw)
	default:
		c.Arguments = json.RawMessage("{}")
		b.log.Warn("the model sent tool arguments that are not a JSON object; the tool gets {}",
			"provider", b.msg.Provider, "model", b.msg.Model, "tool", c.Name, "call", c.ID, "arguments", string(raw))
	}
}

// Finish settles every tool call and returns the message with its stop reason, usage and
// cost. It serves complete answers and the partial ones of a failed or aborted stream alike.
func (b *Builder) Finish(reason StopReason, errMsg string) *Message {
	for pos := range b.args {
		b.Settle(pos)
	}
	m := b.msg
	m.Content = append([]Content(nil), b.msg.Content...)
	m.Usage = b.model.Price.Apply(b.Usage)
	m.StopReason, m.ErrorMessage = reason, errMsg
	return &m
}

// End returns what a provider's Stream returns once its stream is over. In order: ctx ended
// (the partial message, aborted, and ctx's error); the stream stalled; the transport failed
// (streamErr, already classified by the provider); the stream stopped before the protocol's
// end marker (complete is false), which is transient. Otherwise the answer is final().
func (b *Builder) End(ctx context.Context, guard *StallGuard, streamErr error, complete bool, final func() *Message) (*Message, error) {
	var fail error
	switch {
	case ctx.Err() != nil:
		return b.Finish(StopAborted, ""), fmt.Errorf("%s request: %w", b.msg.Provider, ctx.Err())
	case guard.Stalled():
		fail = StallError(b.msg.Provider, guard.Limit())
	case streamErr != nil:
		fail = streamErr
	case !complete:
		fail = &Error{Kind: ErrTransient, Provider: b.msg.Provider, Message: ErrStreamEndedEarly.Error(), Err: ErrStreamEndedEarly}
	default:
		return final(), nil
	}
	return b.Finish(StopError, fail.Error()), fail
}
