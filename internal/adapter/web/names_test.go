package web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestCheckChannelName(t *testing.T) {
	for _, ok := range []string{"general", "ops", "a", "team-2", "x_y", strings.Repeat("a", 40)} {
		if err := checkChannelName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "Ops", "-x", "_x", "a b", "../x", "a/b", ".git", "é", strings.Repeat("a", 41)} {
		if err := checkChannelName(bad); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

func TestPerson(t *testing.T) {
	u, err := person("  Ada   Lovelace ", "mom")
	if err != nil || u.ID != "web:Ada Lovelace" || u.Username != "Ada Lovelace" || u.IsBot {
		t.Errorf("person = %+v, %v", u, err)
	}
	for in, id := range map[string]string{
		"Zoë O'Neil-2":       "web:Zoë O'Neil-2",
		"Zoe\u0308 O'Neil-2": "web:Zoë O'Neil-2", // the same name, its accent typed apart
		"सुमन":               "web:सुमन",         // vowel signs are marks
		"Momo":               "web:Momo",
		"mommy":              "web:mommy",
		"Tom":                "web:Tom",
	} {
		if u, err := person(in, "mom"); err != nil || u.ID != id {
			t.Errorf("person(%q) = %+v, %v; want %s", in, u, err, id)
		}
	}
	for _, bad := range []string{"", "   ", "\u00a0\u2028\t", "<b>", "mom]: hi", strings.Repeat("x", 33), "\xff",
		"\x1b[31m", "a\x00b", "\u200b", "\u3164", "ada\u3164", "\u0301ada", "a\u202eb"} {
		if _, err := person(bad, "mom"); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
}

// TestBotsNameIsReserved: nobody in the web chat may go by mom's own name, in any case,
// spacing or punctuation, in full-width letters or with Cyrillic or Greek look-alikes; the
// reason says so.
func TestBotsNameIsReserved(t *testing.T) {
	for _, name := range []string{"mom", "Mom", "MOM", " m o m ", "M O M", "m.o.m", "m-o-m", "_mom_", "mom.", "m'om",
		"ｍｏｍ", "Мом", "МОМ", "mоm", "mοm", "mòm", "mo\u0301m"} {
		_, err := person(name, "mom")
		if err == nil || !strings.Contains(err.Error(), "reads as mom's own name; pick another") {
			t.Errorf("%q: %v", name, err)
		}
	}
	if _, err := person("Bot", "bot"); err == nil {
		t.Error("another bot name was not reserved")
	}
}

func TestWithoutMention(t *testing.T) {
	for in, want := range map[string]string{
		"@mom stop": "stop", "@mom, hi": "hi", "@mom: hi": "hi", "@mom": "", " hi ": "hi",
		"@momentum rises": "@momentum rises", "ask @mom later": "ask @mom later",
	} {
		if got := withoutMention(in, "mom"); got != want {
			t.Errorf("withoutMention(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestLoadToken(t *testing.T) {
	dir := t.TempDir()
	if tok, fresh, err := loadToken("from-config-0123456789", dir, "web"); err != nil || fresh || tok != "from-config-0123456789" {
		t.Errorf("configured token = %q %v %v", tok, fresh, err)
	}
	if _, err := os.Stat(filepath.Join(dir, "web.token")); err == nil {
		t.Errorf("a configured token was written to disk")
	}
	tok, fresh, err := loadToken("", dir, "web")
	if err != nil || !fresh || len(tok) != 2*tokenBytes {
		t.Fatalf("generated token = %q %v %v", tok, fresh, err)
	}
	if info, err := os.Stat(filepath.Join(dir, "web.token")); err != nil || info.Mode().Perm() != 0o600 {
		t.Errorf("token file: %v %v", info, err)
	}
	again, fresh, err := loadToken("", dir, "web")
	if err != nil || fresh || again != tok {
		t.Errorf("second start = %q %v %v; want the same token, not fresh", again, fresh, err)
	}
	os.WriteFile(filepath.Join(dir, "web.token"), []byte("\n"), 0o600)
	if _, _, err := loadToken("", dir, "web"); err == nil || !strings.Contains(err.Error(), "is empty; delete it") {
		t.Errorf("empty token file: %v", err)
	}
}

func TestSameToken(t *testing.T) {
	if !sameToken("abc", "abc") || sameToken("abc", "abd") || sameToken("", "") || sameToken("abc", "abcd") {
		t.Error("sameToken is wrong")
	}
}

func TestCut(t *testing.T) {
	s := strings.Repeat("é", maxDetail) // two bytes each
	c := cut(s)
	if !strings.HasPrefix(c, s[:maxDetail]) || !strings.Contains(c, "more bytes)") || !strings.HasSuffix(strings.Split(c, "\n")[0], "é") {
		t.Errorf("cut left %q…", c[len(c)-40:])
	}
	if cut("short") != "short" {
		t.Error("a short text was changed")
	}
}

func TestDisposition(t *testing.T) {
	if got := dispositionFor("1700000000000_my report (1).pdf"); got != "attachment; filename*=UTF-8''my%20report%20%281%29.pdf" {
		t.Errorf("got %q", got)
	}
}
