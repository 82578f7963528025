package config

import "testing"

func TestExpand(t *testing.T) {
	vars := map[string]string{"TOKEN": "xoxb-1", "EMPTY": "", "HOST": "h"}
	tests := []struct{ in, want, err string }{
		{in: "plain", want: "plain"},
		{in: "${TOKEN}", want: "xoxb-1"},
		{in: "Bearer ${TOKEN}!", want: "Bearer xoxb-1!"},
		{in: "http://${HOST}:${PORT:-8080}/v1", want: "http://h:8080/v1"},
		{in: "${EMPTY}", want: ""},
		{in: "${EMPTY:-fallback}", want: "fallback"},
		{in: "${UNSET:-}", want: ""},
		{in: "${UNSET:-a b:c}", want: "a b:c"},
		{in: "$$", want: "$"},
		{in: "$${TOKEN}", want: "${TOKEN}"},
		{in: "pa$$word", want: "pa$word"},
		{in: "pa$word", want: "pa$word"},
		{in: "end$", want: "end$"},
		{in: "${UNSET}", err: "environment variable UNSET is not set"},
		{in: "${TOKEN", err: `"${TOKEN" has an unclosed "${"; write "$$" for a literal dollar sign`},
		{in: "${}", err: `"${}" is not a valid variable reference: names use letters, digits and "_" and do not start with a digit`},
		{in: "${A-B}", err: `"${A-B}" is not a valid variable reference: names use letters, digits and "_" and do not start with a digit`},
	}
	for _, tt := range tests {
		got, err := expand(tt.in, env(vars))
		switch {
		case tt.err != "":
			if err == nil || err.Error() != tt.err {
				t.Errorf("expand(%q) error = %v, want %q", tt.in, err, tt.err)
			}
		case err != nil:
			t.Errorf("expand(%q): %v", tt.in, err)
		case got != tt.want:
			t.Errorf("expand(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestSuggest(t *testing.T) {
	known := []string{"type", "busy", "admins", "dm"}
	for word, want := range map[string]string{
		"bussy":  "busy",
		"Busy":   "busy",
		"tpye":   "type",
		"admin":  "admins",
		"DM":     "dm",
		"token":  "",
		"policy": "",
	} {
		if got := suggest(word, known); got != want {
			t.Errorf("suggest(%q) = %q, want %q", word, got, want)
		}
	}
}
