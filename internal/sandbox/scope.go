package sandbox

import "context"

// Isolation says which channel directories a command may see. It is enforced by the bwrap
// executor, whose commands see only what is mounted for them; the host and docker executors
// support only IsolationNone.
type Isolation string

// The isolation levels (config.json sandbox.isolation).
const (
	// IsolationChannel: a command sees the workspace and its own channel's directory, but no
	// other channel's.
	IsolationChannel Isolation = "channel"
	// IsolationUser: as IsolationChannel, plus, read-only, the channels the person who
	// started the run is a member of.
	IsolationUser Isolation = "user"
	// IsolationNone: a command sees the whole workspace, other channels' directories
	// read-only.
	IsolationNone Isolation = "none"
)

// Scope is what one run may see: the channel it runs for and, under IsolationUser, the other
// channels of the person who started it. The agent makes one per run.
type Scope struct {
	// Channel is the host directory of the run's channel, which its commands always see.
	Channel string
	// Shared returns the host directories of the other channels the person who started the
	// run is a member of. It is asked only under IsolationUser, at most once per run when it
	// succeeds; nil means there are none (an event started the run, or the adapter cannot
	// tell who is in which channel).
	Shared func(ctx context.Context) ([]string, error)
}

// Scoper is an Executor that can narrow itself to one run's Scope.
type Scoper interface {
	// Scope returns an Executor whose commands and file operations see only what s allows.
	Scope(s Scope) Executor
}

// ForRun returns e narrowed to s when e enforces isolation, and e itself otherwise. An
// executor that enforces isolation but is used without a scope shows commands no channel
// at all, so forgetting ForRun hides too much rather than too little.
func ForRun(e Executor, s Scope) Executor {
	if sc, ok := e.(Scoper); ok {
		return sc.Scope(s)
	}
	return e
}

// Traits describes an executor's boundary for the system prompt.
type Traits struct {
	// Isolation is what commands see of other channels.
	Isolation Isolation
	// Offline is true when commands have no network.
	Offline bool
}

// TraitsOf returns e's Traits; executors without a boundary of their own report
// IsolationNone with the network on.
func TraitsOf(e Executor) Traits {
	if t, ok := e.(interface{ traits() Traits }); ok {
		return t.traits()
	}
	return Traits{Isolation: IsolationNone}
}
