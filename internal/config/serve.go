package config

import "fmt"

// CheckServe reports why `mom <data-dir>` could not start with this config although it
// parses: it has no adapter, or more than one terminal. `mom run` needs neither, so Parse
// leaves these to the commands that serve; `mom check` asks too, so that it never calls
// valid a config that mom then refuses.
func (c *Config) CheckServe() error {
	if len(c.Adapters) == 0 {
		return fmt.Errorf("%s has no adapters: add one under \"adapters\" (e.g. \"terminal\": {\"type\": \"cli\"})", c.Path)
	}
	terminal := ""
	for _, a := range c.Adapters {
		if a.Platform == nil || !a.Platform.Terminal {
			continue
		}
		if terminal != "" {
			return fmt.Errorf("%s: adapters %s and %s are both terminals; only one can read the keyboard", c.Path, terminal, a.Name)
		}
		terminal = a.Name
	}
	return nil
}

// Terminal returns the entry of the adapter that is the chat at this process's keyboard, if
// there is one (CheckServe makes sure there is one at most).
func (c *Config) Terminal() (*AdapterEntry, bool) {
	for i := range c.Adapters {
		if a := &c.Adapters[i]; a.Platform != nil && a.Platform.Terminal {
			return a, true
		}
	}
	return nil, false
}
