package config

import "testing"

// FuzzParse checks that no input makes Parse panic and that a parsed config resolves.
func FuzzParse(f *testing.F) {
	f.Add(Template())
	f.Add(`{"model": {"apiKey": "${K:-x}"}, "adapters": {"t": {"type": "cli", "dm": ["a"]}}}`)
	f.Add(`{"adapters": {"t": {"type": "cli", "dm": 1, "busy": "x", "y": 2}}, "z": null}`)
	f.Fuzz(func(t *testing.T, in string) {
		c, err := Parse([]byte(in), "config.json", env(map[string]string{"K": "v"}))
		if err != nil {
			return
		}
		_ = c.Resolve(noEnv)
		_ = c.Summary()
	})
}
