package rendertest

import "testing"

// TestCheckPartsCatchesLoss shows that CheckParts finds what a broken split does, so that its
// silence in the split tests means something.
func TestCheckPartsCatchesLoss(t *testing.T) {
	t.Parallel()
	text := "one two three\n\nfour five six"
	if err := CheckParts(text, []string{"one two", "three\n\nfour five six"}, 100); err != nil {
		t.Errorf("CheckParts rejected a good split: %v", err)
	}
	for _, parts := range [][]string{
		{"one two three", "four five"},          // lost "six"
		{"one two three", "four five sixx"},     // added
		{"one two three", "one two three"},      // repeated
		{"four five six", "one two three"},      // reordered
		{"one two", "three four five six"},      // lost the blank line inside a part
		{"one two three\n", "four five six"},    // trailing whitespace left by the cut
		{"one two three", "```\nfour five six"}, // a fence line added outside any code block
	} {
		if err := CheckParts(text, parts, 100); err == nil {
			t.Errorf("CheckParts accepted %q", parts)
		}
	}
}
