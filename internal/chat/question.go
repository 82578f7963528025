package chat

import "context"

// Question is something mom asks the people of a channel, to be answered with one tap on
// one of its Choices (an approval). Where a platform has no buttons, people answer by
// typing; the question's text says how.
type Question struct {
	// ID names the question; every button carries it, and the Answer names it.
	ID string
	// Text is the question, markdown.
	Text    string
	Choices []Choice
}

// Choice is one button of a Question.
type Choice struct {
	// Value is what an Answer carries; Label is what the button says.
	Value, Label string
	// Style is StylePrimary, StyleDanger or "" for a plain button.
	Style string
}

// The styles of a Choice.
const (
	StylePrimary = "primary"
	StyleDanger  = "danger"
)

// Answer is a person's tap on a button of a Question.
type Answer struct {
	// Question is the Question's ID and Choice the Value of the button.
	Question, Choice string
	// ChannelID is where the button was; User who tapped it.
	ChannelID string
	User      User
}

// Asker is the optional ability of a Surface that can show buttons. render asks with it
// where the adapter has it, and otherwise posts the question as text that says what to
// reply. The adapter hands taps on the buttons to its Inbox's Answer, and tells the person
// what Answer returns.
type Asker interface {
	// Ask posts q at at, with its text already in the platform's markup, and returns the
	// message's id.
	Ask(ctx context.Context, at Place, text string, q Question) (id string, err error)
	// Settle replaces the question's message with text, in the platform's markup, and takes
	// its buttons away.
	Settle(ctx context.Context, at Place, id, text string) error
}
