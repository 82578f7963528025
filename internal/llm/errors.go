package llm

import (
	"errors"
	"fmt"
	"time"
)

// ErrorKind sorts provider failures by what the agent should do about them.
type ErrorKind int

// The kinds of provider failure.
const (
	// ErrTransient may go away by itself: 429, 5xx, 529 overloaded, a reset connection, a
	// stream cut in the middle. The agent retries with backoff.
	ErrTransient ErrorKind = iota + 1
	// ErrAuth is a rejected or missing key (401, 403). Retrying cannot help.
	ErrAuth
	// ErrOverflow is a request longer than the model's context window.
	ErrOverflow
	// ErrInvalid is any other rejected request (400, 404, 422).
	ErrInvalid
	// ErrLimit is a call mom itself refused because a spending cap is reached (package
	// spend). It never reached the provider, and retrying cannot help until the cap
	// resets or is raised. Its Message is worded for the chat and is the whole error text.
	ErrLimit
)

func (k ErrorKind) String() string {
	switch k {
	case ErrTransient:
		return "transient"
	case ErrAuth:
		return "auth"
	case ErrOverflow:
		return "overflow"
	case ErrInvalid:
		return "invalid"
	case ErrLimit:
		return "limit"
	}
	return fmt.Sprintf("ErrorKind(%d)", int(k))
}

// Error is a failed model request, classified.
type Error struct {
	Kind ErrorKind
	// Provider is "anthropic" or "openai", for the message.
	Provider string
	// Status is the HTTP status, or 0 when the failure was not an HTTP answer.
	Status int
	// RetryAfter is the server's Retry-After, or zero when it sent none.
	RetryAfter time.Duration
	// Message is the provider's own explanation, for a person to read.
	Message string
	// Err is the underlying error, if any.
	Err error
}

func (e *Error) Error() string {
	msg := e.Message
	if e.Kind == ErrLimit {
		return msg
	}
	if msg == "" && e.Err != nil {
		msg = e.Err.Error()
	}
	if e.Status != 0 {
		return fmt.Sprintf("%s API error %d: %s", e.Provider, e.Status, msg)
	}
	return fmt.Sprintf("%s API: %s", e.Provider, msg)
}

func (e *Error) Unwrap() error { return e.Err }

// Retryable reports whether err is worth retrying.
func Retryable(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == ErrTransient
}

// IsOverflow reports whether err says the request did not fit the context window.
func IsOverflow(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == ErrOverflow
}

// IsLimit reports whether err is a call refused by a spending cap.
func IsLimit(err error) bool {
	var e *Error
	return errors.As(err, &e) && e.Kind == ErrLimit
}
