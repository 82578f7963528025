package store

import (
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var hostileIDs = []string{
	"../../etc", "..", ".", "a/b", `a\b`, "\x00", "x\x00y", "/abs", "~", "%", "%2E", "a b",
	".hidden", "...", "日本語", "emoji 🎉", "C:", "*?<>|\"", "\n", strings.Repeat("x", 10<<10),
	strings.Repeat("é", 300), strings.Repeat("x", 10<<10) + "y",
}

var plainIDs = []string{"C0A34FL8PMH", "1234567890123456789", "-1001234567890", "general", "local", "slack-acme", "a.b", "D0_x-y"}

func checkComponent(t *testing.T, id, c string) {
	t.Helper()
	if c == "" || c == "." || c == ".." || strings.HasPrefix(c, ".") || strings.ContainsAny(c, "/\\\x00") ||
		len(c) > MaxComponent || filepath.Base(c) != c || !utf8.ValidString(c) {
		t.Fatalf("PathComponent(%.40q) = %q is not a safe component", id, c)
	}
}

func TestPathComponent(t *testing.T) {
	for _, id := range plainIDs {
		c, err := PathComponent(id)
		if err != nil || c != id {
			t.Fatalf("PathComponent(%q) = %q, %v; typical ids should stay as they are", id, c, err)
		}
	}
	seen := map[string]string{}
	for _, id := range append(hostileIDs, plainIDs...) {
		c, err := PathComponent(id)
		if err != nil {
			t.Fatal(err)
		}
		checkComponent(t, id, c)
		if other, dup := seen[c]; dup {
			t.Fatalf("%.40q and %.40q share component %q", id, other, c)
		}
		seen[c] = id
		back, err := ParsePathComponent(c)
		if len(id)*3 > MaxComponent && errors.Is(err, ErrShortened) {
			continue
		}
		if err != nil || back != id {
			t.Fatalf("ParsePathComponent(%q) = %.40q, %v; want %.40q", c, back, err, id)
		}
	}
	if c, _ := PathComponent(".."); c != "%2E." {
		t.Fatalf(`".." -> %q`, c)
	}
	if c, _ := PathComponent("../../etc"); c != "%2E.%2F..%2Fetc" {
		t.Fatalf(`"../../etc" -> %q`, c)
	}
	if _, err := PathComponent(""); err == nil {
		t.Fatal("the empty name was accepted")
	}
}

func TestParsePathComponentRejectsForeignNames(t *testing.T) {
	for _, c := range []string{"", ".git", "a%2", "a%zz", "%2e", "%41", "a b", "x~0123", "..", "lost+found"} {
		if name, err := ParsePathComponent(c); err == nil {
			t.Errorf("ParsePathComponent(%q) = %q, want an error", c, name)
		}
	}
}

func FuzzPathComponent(f *testing.F) {
	for _, id := range append(hostileIDs[:len(hostileIDs)-3], plainIDs...) {
		f.Add(id)
	}
	f.Fuzz(func(t *testing.T, id string) {
		c, err := PathComponent(id)
		if id == "" {
			if err == nil {
				t.Fatal("empty name accepted")
			}
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		checkComponent(t, id, c)
		back, err := ParsePathComponent(c)
		if errors.Is(err, ErrShortened) && len(c) > MaxComponent-40 {
			return
		}
		if err != nil || back != id {
			t.Fatalf("round trip of %q through %q gave %q, %v", id, c, back, err)
		}
	})
}
