package config

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseSandboxSection(t *testing.T) {
	c, err := Parse([]byte(`{"sandbox": {"type": "bwrap", "isolation": "user", "network": false, "env": ["GH_TOKEN", "NPM_CONFIG_REGISTRY"]}}`), "config.json", noEnv)
	if err != nil {
		t.Fatal(err)
	}
	want := Sandbox{Type: SandboxBwrap, Isolation: IsolationUser, Offline: true, Env: []string{"GH_TOKEN", "NPM_CONFIG_REGISTRY"}}
	if !reflect.DeepEqual(c.Sandbox, want) {
		t.Errorf("sandbox = %+v\nwant      %+v", c.Sandbox, want)
	}
}

func TestParseSandboxErrors(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{`{"isolation": "team"}`, `config.json: sandbox.isolation: "team" is not a valid isolation (use one of: channel, user, none)`},
		{`{"network": "off"}`, `config.json: sandbox.network: expected true or false, got a string`},
		{`{"env": "GH_TOKEN"}`, `config.json: sandbox.env: expected a list of strings ([...]), got a string`},
		{`{"env": ["GH_TOKEN", "LD_PRELOAD"]}`, `config.json: sandbox.env[1]: LD_PRELOAD steers the dynamic loader and is never passed to commands`},
		{`{"env": ["1X"]}`, `config.json: sandbox.env[0]: "1X" is not a variable name (letters, digits and "_", not starting with a digit)`},
		{`{"env": ["A=B"]}`, `config.json: sandbox.env[0]: "A=B" is not a variable name (letters, digits and "_", not starting with a digit)`},
		{`{"type": "host", "isolation": "channel"}`, `config.json: sandbox.isolation: "channel" isolation is enforced by bubblewrap and needs "type": "bwrap"; the host sandbox shows commands the whole workspace (use "none")`},
		{`{"type": "docker", "container": "box", "isolation": "user"}`, `config.json: sandbox.isolation: "user" isolation is enforced by bubblewrap and needs "type": "bwrap"; the docker sandbox shows commands the whole workspace (use "none")`},
		{`{"type": "docker", "container": "box", "network": false}`, `config.json: sandbox.network: "network": false needs "type": "bwrap"; start the container with --network none instead`},
		{`{"type": "bwrap", "container": "box"}`, `config.json: sandbox.container: only the docker sandbox uses a container; set "type": "docker" or remove it`},
		{`{"typ": "bwrap"}`, `config.json: sandbox: unknown key "typ"; did you mean "type"? (known keys: type, container, isolation, network, env)`},
	} {
		_, err := Parse([]byte(`{"sandbox": `+tt.in+`}`), "config.json", noEnv)
		if err == nil || err.Error() != tt.want {
			t.Errorf("%s:\n got %v\nwant %s", tt.in, err, tt.want)
		}
	}
}

func TestChooseSandbox(t *testing.T) {
	noBwrap := errors.New("bwrap: No permissions to create new namespace")
	for _, tt := range []struct {
		name   string
		in     Sandbox
		bwrap  error
		want   Sandbox
		err    string
		chosen string
	}{
		{name: "bwrap works", in: Sandbox{}, want: Sandbox{Type: SandboxBwrap, Isolation: IsolationChannel}, chosen: "bubblewrap works here"},
		{name: "bwrap fails", in: Sandbox{}, bwrap: noBwrap, want: Sandbox{Type: SandboxHost, Isolation: IsolationNone}, chosen: "No permissions"},
		{name: "explicit host", in: Sandbox{Type: SandboxHost}, want: Sandbox{Type: SandboxHost, Isolation: IsolationNone}},
		{name: "explicit bwrap, user", in: Sandbox{Type: SandboxBwrap, Isolation: IsolationUser}, bwrap: noBwrap, want: Sandbox{Type: SandboxBwrap, Isolation: IsolationUser}},
		{name: "isolation without bwrap", in: Sandbox{Isolation: IsolationChannel}, bwrap: noBwrap,
			err: `sandbox.isolation: "channel" isolation is enforced by bubblewrap and needs "type": "bwrap"; the host sandbox shows commands the whole workspace (use "none"); bubblewrap cannot be used here: bwrap: No permissions to create new namespace`},
		{name: "offline without bwrap", in: Sandbox{Offline: true}, bwrap: noBwrap, err: `sandbox.network: "network": false needs "type": "bwrap"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			s := tt.in
			err := s.Choose(tt.bwrap)
			if tt.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tt.err) {
					t.Errorf("error %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(s.Chosen, tt.chosen) || (tt.chosen == "") != (s.Chosen == "") {
				t.Errorf("chosen %q, want it to mention %q", s.Chosen, tt.chosen)
			}
			s.Chosen = ""
			if !reflect.DeepEqual(s, tt.want) {
				t.Errorf("sandbox %+v, want %+v", s, tt.want)
			}
		})
	}
}

func TestSandboxSummary(t *testing.T) {
	for _, tt := range []struct {
		s    Sandbox
		want string
	}{
		{Sandbox{Type: SandboxBwrap, Isolation: IsolationUser, Offline: true, Env: []string{"GH_TOKEN"}},
			"sandbox:  bwrap, isolation user, no network (only the workspace is writable, and of channels/ only the run's own channel, whose history, log.jsonl and context.jsonl, is read-only; the channels of the person who asked are read-only, the others hidden); commands also get GH_TOKEN\n"},
		{Sandbox{Type: SandboxBwrap, Isolation: IsolationNone, Boundary: "commands run as root, with every capability dropped", Weakened: "no user namespace here"},
			"sandbox:  bwrap, isolation none, network on (only the workspace is writable, and of channels/ only the run's own channel, whose history, log.jsonl and context.jsonl, is read-only; other channels are read-only); commands run as root, with every capability dropped; WARNING: no user namespace here\n"},
		{Sandbox{Type: SandboxHost, Isolation: IsolationNone, Chosen: "no sandbox is configured and bubblewrap cannot be used: nope"},
			"sandbox:  host (commands run directly on this machine, as this user, unisolated); no sandbox is configured and bubblewrap cannot be used: nope\n"},
		{Sandbox{}, "sandbox:  not configured: bwrap where bubblewrap works, otherwise host\n"},
	} {
		c := &Config{Sandbox: tt.s}
		if got := c.Summary(); !strings.Contains(got, tt.want) {
			t.Errorf("summary\n%s\nlacks %q", got, tt.want)
		}
	}
}
