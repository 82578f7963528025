package config

import (
	"strings"
	"testing"
	"time"
)

func TestCustomTools(t *testing.T) {
	tests := []struct {
		name, in string
		want     CustomTools
	}{
		{"absent", `{}`, CustomTools{Mode: CustomToolsInvoke, Timeout: DefaultToolTimeout}},
		{"mode as a string", `{"customTools": "direct"}`, CustomTools{Mode: CustomToolsDirect, Timeout: DefaultToolTimeout}},
		{"object", `{"customTools": {"mode": "invoke", "timeoutSeconds": 5}}`, CustomTools{Mode: CustomToolsInvoke, Timeout: 5 * time.Second}},
		{"timeout only", `{"customTools": {"timeoutSeconds": 300}}`, CustomTools{Mode: CustomToolsInvoke, Timeout: 300 * time.Second}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := Parse([]byte(tt.in), "config.json", noEnv)
			if err != nil {
				t.Fatal(err)
			}
			if c.CustomTools != tt.want {
				t.Errorf("CustomTools = %+v, want %+v", c.CustomTools, tt.want)
			}
		})
	}
}

func TestCustomToolsErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"customTools": "sometimes"}`, `config.json: customTools: "sometimes" is not a custom tools mode (use "invoke"`},
		{`{"customTools": {"mode": "both"}}`, `config.json: customTools.mode: "both" is not a custom tools mode`},
		{`{"customTools": {"timeoutSeconds": 0}}`, `config.json: customTools.timeoutSeconds: must be at least 1, got 0`},
		{`{"customTools": {"timeoutSecond": 5}}`, `config.json: customTools: unknown key "timeoutSecond"; did you mean "timeoutSeconds"?`},
		{`{"customTools": true}`, `config.json: customTools: expected "invoke", "direct" or an object`},
	}
	for _, tt := range tests {
		_, err := Parse([]byte(tt.in), "config.json", noEnv)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: error %v, want it to contain %q", tt.in, err, tt.want)
		}
	}
}

func TestExpandEnvForTools(t *testing.T) {
	got, err := ExpandEnv("Bearer ${WEATHER_KEY}", env(map[string]string{"WEATHER_KEY": "wk"}))
	if err != nil || got != "Bearer wk" {
		t.Errorf("ExpandEnv = %q, %v", got, err)
	}
	if _, err := ExpandEnv("${MISSING}", noEnv); err == nil || !strings.Contains(err.Error(), "MISSING is not set") {
		t.Errorf("a missing variable gave %v", err)
	}
}
