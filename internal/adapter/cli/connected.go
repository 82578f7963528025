package cli

// Connected reports that the terminal is ready: it needs no connection (for /readyz).
func (a *Adapter) Connected() bool { return true }

// Heard reports whether the input has carried a message. When the input ends, mom tells a
// script that piped in messages (answer them, then quit) from a service whose input was empty
// from the start (/dev/null: keep the other adapters running).
func (a *Adapter) Heard() bool { return a.heard.Load() }
