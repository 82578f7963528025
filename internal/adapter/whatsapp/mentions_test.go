//go:build !nowhatsapp

package whatsapp

import "testing"

func TestMentionTags(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"@431 hi", "hi"},
		{"ask @431 now", "ask now"},
		{"hi @431", "hi "},
		{"@4312 is someone else", "@4312 is someone else"},
		{"@431\nnext line", "\nnext line"},
		{"@431 @431 twice", "twice"},
	} {
		if got := removeTag(tt.in, "@431"); got != tt.want {
			t.Errorf("removeTag(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := replaceTag("@431, @4312 and @431", "@431", "@Ada_431"); got != "@Ada_431, @4312 and @Ada_431" {
		t.Errorf("replaceTag = %q", got)
	}
	if got, ok := cutPrefix("  Mom, what's up", "mom,"); !ok || got != "what's up" {
		t.Errorf("cutPrefix = %q %v", got, ok)
	}
	if _, ok := cutPrefix("mommy", "mom,"); ok {
		t.Error("cutPrefix took a word that only starts like the prefix")
	}
}
