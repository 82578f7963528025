package config

import "fmt"

// check reports a setting that the sandbox's type cannot honour, and the key it concerns:
// isolation and "network": false are enforced by bubblewrap only.
func (s *Sandbox) check() (key string, err error) {
	if s.Type == SandboxBwrap || s.Type == "" {
		return "", nil
	}
	if s.Isolation == IsolationChannel || s.Isolation == IsolationUser {
		return "isolation", fmt.Errorf("%q isolation is enforced by bubblewrap and needs \"type\": \"bwrap\"; the %s sandbox shows commands the whole workspace (use \"none\")", s.Isolation, s.Type)
	}
	if s.Offline {
		hint := "commands on the host use its network"
		if s.Type == SandboxDocker {
			hint = "start the container with --network none instead"
		}
		return "network", fmt.Errorf("\"network\": false needs \"type\": \"bwrap\"; %s", hint)
	}
	return "", nil
}

// Choose settles the sandbox before start-up. When neither the file nor a flag named a type,
// it picks bwrap if bwrapErr (the outcome of trying bubblewrap on this host) is nil, and the
// host otherwise, recording why in Chosen. Then it fills in the default isolation. It fails
// when the settings need bubblewrap (isolation channel or user, network off) and the host
// was picked, naming the setting and why bubblewrap could not be used.
func (s *Sandbox) Choose(bwrapErr error) error {
	if s.Type == "" {
		if bwrapErr == nil {
			s.Type = SandboxBwrap
			s.Chosen = "chosen because no sandbox is configured and bubblewrap works here"
		} else {
			s.Type = SandboxHost
			s.Chosen = fmt.Sprintf("no sandbox is configured and bubblewrap cannot be used: %v", bwrapErr)
			if key, err := s.check(); err != nil {
				return fmt.Errorf("sandbox.%s: %w; bubblewrap cannot be used here: %v", key, err, bwrapErr)
			}
		}
	}
	if key, err := s.check(); err != nil {
		return fmt.Errorf("sandbox.%s: %w", key, err)
	}
	if s.Isolation == "" {
		s.Isolation = IsolationNone
		if s.Type == SandboxBwrap {
			s.Isolation = IsolationChannel
		}
	}
	return nil
}
